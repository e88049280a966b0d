import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessKeyListing, AccountUsage, CreatedAccessKey, PartnerUserUsage } from '../../shared/api-types.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { accountCli, accountOf, createUser, createUserKey, expectError, ledgerOfUuid, ownerAccountRow } from '../helpers/account-api.js';

const GiB = 1024 ** 3;

describe('partner API', () => {
  let server: TestServer;
  let ownerUuid: string;
  beforeAll(async () => {
    server = await startTestServer();
    ownerUuid = (await ownerAccountRow(server)).uuid;
  });
  afterAll(async () => {
    await server.stop();
  });

  describe('user create', () => {
    it("creates a Free user that keeps the partner's uuid", async () => {
      const response = await call(server, 'POST', '/api/v0/partner/user/create', {
        key: server.owner,
        body: { uuid: 'create-ok', name: 'Alice', email: 'alice@example.com' },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.json).toEqual({ code: 200, msg: 'ok' });
      expect(await accountOf(server, 'create-ok')).toMatchObject({ name: 'Alice', email: 'alice@example.com', planId: 1, balanceCents: 0, isPartner: false });
    });

    it('a duplicate uuid is 409 and changes nothing', async () => {
      await createUser(server, server.owner, 'create-dup');
      const before = await accountOf(server, 'create-dup');
      const again = await call(server, 'POST', '/api/v0/partner/user/create', {
        key: server.owner,
        body: { uuid: 'create-dup', name: 'Other', email: 'other@example.com' },
      });
      expectError(again, 409, /uuid/);
      expect(await accountOf(server, 'create-dup')).toEqual(before);
    });

    it('bad input is 400 naming the field, and creates nothing', async () => {
      const cases: [unknown, RegExp][] = [
        [{ uuid: 'bad-1', name: 'N', email: 'not-an-email' }, /^email /],
        [{ uuid: 'bad-2', name: 'N', email: 'a@b' }, /^email /],
        [{ uuid: 'bad-3', name: 'N' }, /^email /],
        [{ uuid: 'bad-4', email: 'n@example.com' }, /^name /],
        [{ name: 'N', email: 'n@example.com' }, /^uuid /],
        [{ uuid: 'bad-5', name: 'N', email: 42 }, /^email must be a string/],
        [{ uuid: 'bad-6', name: ['N'], email: 'n@example.com' }, /^name must be a string/],
        [{ uuid: 7, name: 'N', email: 'n@example.com' }, /^uuid must be a string/],
        [{ uuid: '', name: 'N', email: 'n@example.com' }, /^uuid /],
        ['{"uuid": "bad-7", ', /JSON/],
        ['"a string"', /JSON object/],
      ];
      for (const [body, msg] of cases) {
        expectError(await call(server, 'POST', '/api/v0/partner/user/create', { key: server.owner, body }), 400, msg);
      }
      for (const uuid of ['bad-1', 'bad-2', 'bad-3', 'bad-4', 'bad-5', 'bad-6', 'bad-7']) await expect(accountOf(server, uuid)).rejects.toThrow(/no account/);
    });

    it('JSON sent as application/x-www-form-urlencoded still parses', async () => {
      const response = await call(server, 'POST', '/api/v0/partner/user/create', {
        key: server.owner,
        body: JSON.stringify({ uuid: 'form-user', name: 'Form', email: 'form@example.com' }),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      expect(response.status).toBe(200);
      expect((await accountOf(server, 'form-user')).email).toBe('form@example.com');
    });
  });

  describe('user stats', () => {
    it('shows the usage without eth_addr and token_amount', async () => {
      await createUser(server, server.owner, 'stats-user', 'stats@example.com');
      const response = await call<{ code: number; msg: string; data: PartnerUserUsage }>(server, 'GET', '/api/v0/partner/user/stats', {
        key: server.owner,
        query: { uuid: 'stats-user' },
      });
      expect(response.status).toBe(200);
      expect(response.json.code).toBe(200);
      const data = response.json.data;
      expect(data).not.toHaveProperty('eth_addr');
      expect(data).not.toHaveProperty('token_amount');
      expect(data).toMatchObject({
        name: 'user stats-user',
        provider: 'partner',
        email: 'stats@example.com',
        email_verified: false,
        plan: 'Free',
        next_plan: 'Free',
        pinned_count: 0,
        pinned_count_limit: 100,
        pinned_bytes_limit: GiB,
        ingress_limit: 5 * GiB,
        egress_limit: 5 * GiB,
        ipns_limit: 3,
      });
      expect(Object.keys(data).sort()).toEqual(
        [
          'name',
          'provider',
          'email',
          'email_verified',
          'plan',
          'next_plan',
          'next_bill_at',
          'pinned_count',
          'pinned_count_limit',
          'pinned_bytes',
          'pinned_bytes_limit',
          'ingress',
          'ingress_limit',
          'egress',
          'egress_limit',
          'ipns',
          'ipns_limit',
        ].sort(),
      );
    });

    it('unknown uuid is 404, missing uuid 400', async () => {
      expectError(await call(server, 'GET', '/api/v0/partner/user/stats', { key: server.owner, query: { uuid: 'nobody' } }), 404, /nobody/);
      expectError(await call(server, 'GET', '/api/v0/partner/user/stats', { key: server.owner }), 400, /^uuid /);
    });
  });

  describe('update-plan', () => {
    it('charges the fee to the partner, writes a ledger row, and the stats change at once', async () => {
      await createUser(server, server.owner, 'plan-user');
      const ownerBefore = (await ownerAccountRow(server)).balanceCents;
      const ledgerBefore = await ledgerOfUuid(server, ownerUuid);
      const response = await call(server, 'POST', '/api/v0/partner/user/update-plan', {
        key: server.owner,
        body: { uuid: 'plan-user', plan_id: 2 },
      });
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ code: 200, msg: 'ok' });

      const stats = await call<{ data: PartnerUserUsage }>(server, 'GET', '/api/v0/partner/user/stats', {
        key: server.owner,
        query: { uuid: 'plan-user' },
      });
      expect(stats.json.data).toMatchObject({
        plan: 'Starter',
        next_plan: 'Starter',
        pinned_count_limit: 1_000,
        pinned_bytes_limit: 50 * GiB,
        ingress_limit: 100 * GiB,
        egress_limit: 100 * GiB,
        ipns_limit: 10,
      });

      expect((await ownerAccountRow(server)).balanceCents).toBe(ownerBefore - 499);
      const own = await call<{ data: AccountUsage }>(server, 'GET', '/api/v0/stats', { key: server.owner });
      expect(own.json.data.token_amount).toBe(((ownerBefore - 499) / 100).toFixed(2));

      const ledger = await ledgerOfUuid(server, ownerUuid);
      expect(ledger).toHaveLength(ledgerBefore.length + 1);
      expect(ledger.at(-1)).toMatchObject({
        amountCents: -499,
        balanceAfterCents: ownerBefore - 499,
        kind: 'plan_fee',
        subjectAccountId: (await accountOf(server, 'plan-user')).id,
        planId: 2,
      });
    });

    it('bad plan ids and bodies are 400 naming the parameter, and change nothing', async () => {
      await createUser(server, server.owner, 'plan-bad');
      const ownerBefore = await ownerAccountRow(server);
      const ledgerBefore = await ledgerOfUuid(server, ownerUuid);
      const cases: [unknown, RegExp][] = [
        [{ uuid: 'plan-bad', plan_id: 99 }, /^plan_id 99/],
        [{ uuid: 'plan-bad', plan_id: 0 }, /^plan_id 0/],
        [{ uuid: 'plan-bad', plan_id: '2' }, /^plan_id must be an integer/],
        [{ uuid: 'plan-bad', plan_id: 2.5 }, /^plan_id must be an integer/],
        [{ uuid: 'plan-bad' }, /^plan_id is required/],
        [{ plan_id: 2 }, /^uuid is required/],
        [{ uuid: 3, plan_id: 2 }, /^uuid must be a string/],
        ['not json', /JSON/],
      ];
      for (const [body, msg] of cases) expectError(await call(server, 'POST', '/api/v0/partner/user/update-plan', { key: server.owner, body }), 400, msg);
      expectError(await call(server, 'POST', '/api/v0/partner/user/update-plan', { key: server.owner, body: { uuid: 'nobody', plan_id: 2 } }), 404, /nobody/);
      expect((await accountOf(server, 'plan-bad')).planId).toBe(1);
      expect(await ownerAccountRow(server)).toEqual(ownerBefore);
      expect(await ledgerOfUuid(server, ownerUuid)).toEqual(ledgerBefore);
    });
  });

  describe('user keys', () => {
    it("create, list and delete a user's key; the key reaches that user's own stats", async () => {
      await createUser(server, server.owner, 'keys-user');
      const response = await call<{ code: number; msg: string; data: CreatedAccessKey }>(server, 'POST', '/api/v0/partner/user/key', {
        key: server.owner,
        body: { uuid: 'keys-user', name: 'app', permissions: ['admin'] },
      });
      expect(response.status).toBe(200);
      expect(response.json).toMatchObject({ code: 200, msg: 'ok' });
      const key = response.json.data;
      expect(key.access_secret).toMatch(/^[A-Za-z0-9_-]{64}$/);

      const stats = await call<{ data: AccountUsage }>(server, 'GET', '/api/v0/stats', { key });
      expect(stats.status).toBe(200);
      expect(stats.json.data).toMatchObject({ name: 'user keys-user', email: 'keys-user@example.com', plan: 'Free', token_amount: '0.00' });
      expect((await call(server, 'GET', '/api/v0/stats', { key, signed: true })).status).toBe(200);

      const list = await call<{ data: AccessKeyListing[] }>(server, 'GET', '/api/v0/partner/user/keys', {
        key: server.owner,
        query: { uuid: 'keys-user' },
      });
      expect(list.status).toBe(200);
      expect(list.json.data).toEqual([{ name: 'app', access_key: key.access_key, permissions: ['admin'] }]);
      expect(list.text).not.toContain(key.access_secret);

      expectError(
        await call(server, 'POST', '/api/v0/partner/user/key', { key: server.owner, body: { uuid: 'keys-user', name: 'app', permissions: ['read'] } }),
        409,
        /app/,
      );

      const del = await call(server, 'DELETE', '/api/v0/partner/user/key', { key: server.owner, body: { uuid: 'keys-user', name: 'app' } });
      expect(del.status).toBe(200);
      expect(del.json).toEqual({ code: 200, msg: 'ok' });
      expectError(await call(server, 'GET', '/api/v0/stats', { key }), 401, /access key/);
      const after = await call<{ data: AccessKeyListing[] }>(server, 'GET', '/api/v0/partner/user/keys', {
        key: server.owner,
        query: { uuid: 'keys-user' },
      });
      expect(after.json.data).toEqual([]);
    });

    it('bad user-key input is 400/404 naming the parameter', async () => {
      await createUser(server, server.owner, 'keys-bad');
      const post = (body: unknown) => call(server, 'POST', '/api/v0/partner/user/key', { key: server.owner, body });
      expectError(await post({ uuid: 'keys-bad', name: 'k', permissions: ['everything'] }), 400, /^permissions/);
      expectError(await post({ uuid: 'keys-bad', name: 'k' }), 400, /^permissions/);
      expectError(await post({ uuid: 'keys-bad', permissions: ['read'] }), 400, /^name/);
      expectError(await post({ name: 'k', permissions: ['read'] }), 400, /^uuid/);
      expectError(await post({ uuid: 'nobody', name: 'k', permissions: ['read'] }), 404, /nobody/);
      expectError(await call(server, 'GET', '/api/v0/partner/user/keys', { key: server.owner }), 400, /^uuid/);
      expectError(await call(server, 'GET', '/api/v0/partner/user/keys', { key: server.owner, query: { uuid: 'nobody' } }), 404, /nobody/);
      expectError(await call(server, 'DELETE', '/api/v0/partner/user/key', { key: server.owner, body: { uuid: 'keys-bad', name: 'none' } }), 404, /none/);
      expectError(await call(server, 'DELETE', '/api/v0/partner/user/key', { key: server.owner, body: { name: 'k' } }), 400, /^uuid/);
      const list = await call<{ data: AccessKeyListing[] }>(server, 'GET', '/api/v0/partner/user/keys', {
        key: server.owner,
        query: { uuid: 'keys-bad' },
      });
      expect(list.json.data).toEqual([]);
    });
  });

  describe('partners and isolation', () => {
    let partnerB: CreatedAccessKey;

    it('a non-partner account gets 403 on every partner endpoint; `account partner <uuid> on` lets it in at once', async () => {
      await createUser(server, server.owner, 'partner-b');
      partnerB = await createUserKey(server, server.owner, 'partner-b', 'admin', ['admin']);
      const attempts = [
        () => call(server, 'POST', '/api/v0/partner/user/create', { key: partnerB, body: { uuid: 'b-user', name: 'B', email: 'b@example.com' } }),
        () => call(server, 'GET', '/api/v0/partner/user/stats', { key: partnerB, query: { uuid: 'b-user' } }),
        () => call(server, 'POST', '/api/v0/partner/user/update-plan', { key: partnerB, body: { uuid: 'b-user', plan_id: 2 } }),
        () => call(server, 'POST', '/api/v0/partner/user/key', { key: partnerB, body: { uuid: 'b-user', name: 'k', permissions: ['read'] } }),
        () => call(server, 'GET', '/api/v0/partner/user/keys', { key: partnerB, query: { uuid: 'b-user' } }),
        () => call(server, 'DELETE', '/api/v0/partner/user/key', { key: partnerB, body: { uuid: 'b-user', name: 'k' } }),
      ];
      for (const attempt of attempts) expectError(await attempt(), 403, /partner/);
      await expect(accountOf(server, 'b-user')).rejects.toThrow(/no account/);

      const cli = await accountCli(server, ['partner', 'partner-b', 'on']);
      expect(cli).toMatchObject({ code: 0, stderr: '' });
      expect(cli.stdout).toContain('partner-b partner on');
      expect((await attempts[0]?.())?.status).toBe(200);
      expect((await accountOf(server, 'b-user')).partnerId).toBe((await accountOf(server, 'partner-b')).id);
    });

    it('a partner with too little balance gets 402 and nothing changes; after a credit the charge goes through', async () => {
      const before = await accountOf(server, 'partner-b');
      expect(before.balanceCents).toBe(0);
      const response = await call(server, 'POST', '/api/v0/partner/user/update-plan', { key: partnerB, body: { uuid: 'b-user', plan_id: 2 } });
      expectError(response, 402, /balance/, 'balance');
      expect(await accountOf(server, 'partner-b')).toEqual(before);
      expect((await accountOf(server, 'b-user')).planId).toBe(1);
      expect(await ledgerOfUuid(server, 'partner-b')).toEqual([]);
      const stats = await call<{ data: PartnerUserUsage }>(server, 'GET', '/api/v0/partner/user/stats', { key: partnerB, query: { uuid: 'b-user' } });
      expect(stats.json.data.plan).toBe('Free');

      expect((await accountCli(server, ['credit', 'partner-b', '5.00'])).code).toBe(0);
      const ok = await call(server, 'POST', '/api/v0/partner/user/update-plan', { key: partnerB, body: { uuid: 'b-user', plan_id: 2 } });
      expect(ok.status).toBe(200);
      expect((await accountOf(server, 'partner-b')).balanceCents).toBe(1);
      expect((await ledgerOfUuid(server, 'partner-b')).map((r) => [r.kind, r.amountCents, r.balanceAfterCents])).toEqual([
        ['credit', 500, 500],
        ['plan_fee', -499, 1],
      ]);
      const own = await call<{ data: AccountUsage }>(server, 'GET', '/api/v0/stats', { key: partnerB });
      expect(own.json.data.token_amount).toBe('0.01');

      // 0.01 left: Pro (9.99) is refused and changes nothing.
      const ledgerBefore = await ledgerOfUuid(server, 'partner-b');
      expectError(await call(server, 'POST', '/api/v0/partner/user/update-plan', { key: partnerB, body: { uuid: 'b-user', plan_id: 3 } }), 402, /balance/);
      expect((await accountOf(server, 'b-user')).planId).toBe(2);
      expect((await accountOf(server, 'partner-b')).balanceCents).toBe(1);
      expect(await ledgerOfUuid(server, 'partner-b')).toEqual(ledgerBefore);
    });

    it("partner A cannot see or act on partner B's users, nor B on A's (404), even with the right uuid", async () => {
      await createUser(server, server.owner, 'a-user');
      const aUserKey = await createUserKey(server, server.owner, 'a-user', 'k', ['read']);
      const bUserKey = await createUserKey(server, partnerB, 'b-user', 'k', ['read']);
      const ownerBalance = (await ownerAccountRow(server)).balanceCents;
      const pairs: [CreatedAccessKey, string][] = [
        [server.owner, 'b-user'],
        [partnerB, 'a-user'],
      ];
      for (const [partner, uuid] of pairs) {
        expectError(await call(server, 'GET', '/api/v0/partner/user/stats', { key: partner, query: { uuid } }), 404, new RegExp(uuid));
        expectError(await call(server, 'POST', '/api/v0/partner/user/update-plan', { key: partner, body: { uuid, plan_id: 1 } }), 404, new RegExp(uuid));
        expectError(
          await call(server, 'POST', '/api/v0/partner/user/key', { key: partner, body: { uuid, name: 'intruder', permissions: ['admin'] } }),
          404,
          new RegExp(uuid),
        );
        expectError(await call(server, 'GET', '/api/v0/partner/user/keys', { key: partner, query: { uuid } }), 404, new RegExp(uuid));
        expectError(await call(server, 'DELETE', '/api/v0/partner/user/key', { key: partner, body: { uuid, name: 'k' } }), 404, new RegExp(uuid));
      }
      // Nothing moved: both users keep their one key and plan, the balances stand.
      expect((await call(server, 'GET', '/api/v0/partner/user/keys', { key: server.owner, query: { uuid: 'a-user' } })).json).toMatchObject({
        data: [{ name: 'k', access_key: aUserKey.access_key }],
      });
      expect((await call(server, 'GET', '/api/v0/partner/user/keys', { key: partnerB, query: { uuid: 'b-user' } })).json).toMatchObject({
        data: [{ name: 'k', access_key: bUserKey.access_key }],
      });
      expect((await accountOf(server, 'b-user')).planId).toBe(2);
      expect((await accountOf(server, 'a-user')).planId).toBe(1);
      expect((await ownerAccountRow(server)).balanceCents).toBe(ownerBalance);
      // Nor can B reach the account above it.
      expectError(await call(server, 'GET', '/api/v0/partner/user/stats', { key: partnerB, query: { uuid: ownerUuid } }), 404, /uuid/);
    });

    it('`account partner <uuid> off` shuts the partner API at once', async () => {
      expect((await accountCli(server, ['partner', 'partner-b', 'off'])).code).toBe(0);
      expectError(await call(server, 'GET', '/api/v0/partner/user/keys', { key: partnerB, query: { uuid: 'b-user' } }), 403, /partner/);
      // The account API (its own stats) still works.
      expect((await call(server, 'GET', '/api/v0/stats', { key: partnerB })).status).toBe(200);
    });
  });
});
