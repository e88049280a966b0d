import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessKeyListing, AccountUsage, CreatedAccessKey, NewAccessKey } from '../../shared/api-types.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { createKey, expectError } from '../helpers/account-api.js';

describe('account API', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('stats: the owner on Local, balance 1000.00, every field of the account usage', async () => {
    const response = await call<{ code: number; msg: string; data: AccountUsage }>(server, 'GET', '/api/v0/stats', { key: server.owner });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.json.code).toBe(200);
    expect(response.json.msg).toBe('ok');
    const now = new Date();
    expect(response.json.data).toEqual({
      name: 'owner',
      provider: 'local',
      email: '',
      email_verified: false,
      eth_addr: '',
      token_amount: '1000.00',
      plan: 'Local',
      next_plan: 'Local',
      next_bill_at: Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) / 1000,
      pinned_count: 0,
      pinned_count_limit: Number.MAX_SAFE_INTEGER,
      pinned_bytes: 0,
      pinned_bytes_limit: Number.MAX_SAFE_INTEGER,
      ingress: 0,
      ingress_limit: Number.MAX_SAFE_INTEGER,
      egress: 0,
      egress_limit: Number.MAX_SAFE_INTEGER,
      ipns: 0,
      ipns_limit: Number.MAX_SAFE_INTEGER,
    });
  });

  it('key create returns the secret once; listings never show it', async () => {
    const response = await call<{ code: number; msg: string; data: NewAccessKey }>(server, 'POST', '/api/v0/key', {
      key: server.owner,
      body: { name: 'reader', permissions: ['read', 'pin'] },
    });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ code: 200, msg: 'ok' });
    const created = response.json.data;
    // psa_token: the key's Pinning Service API token, shown with the secret (contract section 11).
    expect(Object.keys(created).sort()).toEqual(['access_key', 'access_secret', 'psa_token']);
    expect(created.psa_token).toBe(`${created.access_key}.${created.access_secret}`);
    expect(created.access_key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(created.access_secret).toMatch(/^[A-Za-z0-9_-]{64}$/);

    const list = await call<{ code: number; msg: string; data: AccessKeyListing[] }>(server, 'GET', '/api/v0/keys', { key: server.owner });
    expect(list.status).toBe(200);
    expect(list.json.code).toBe(200);
    const mine = list.json.data.find((k) => k.name === 'reader');
    // `session` is the Pinfold extension of issue 12 (false: an ordinary key).
    expect(mine).toEqual({ name: 'reader', access_key: created.access_key, permissions: ['read', 'pin'], session: false });
    // The owner key (the one in the data folder's home, which the CLI reads) is marked, and only it (issue 26).
    expect(list.json.data.filter((k) => 'owner' in k)).toEqual([
      expect.objectContaining({ access_key: server.owner.access_key, permissions: ['admin'], owner: true }),
    ]);
    for (const key of list.json.data)
      expect(Object.keys(key).sort()).toEqual(
        ['access_key', 'name', 'permissions', 'session', ...(key.access_key === server.owner.access_key ? ['owner'] : [])].sort(),
      );
    expect(list.text).not.toContain(created.access_secret);
    expect(list.text).not.toContain(server.owner.access_secret);
  });

  it('a new admin key works at once, in both auth modes', async () => {
    const admin = await createKey(server, server.owner, 'second-admin', ['admin']);
    expect((await call(server, 'GET', '/api/v0/stats', { key: admin })).status).toBe(200);
    expect((await call(server, 'GET', '/api/v0/stats', { key: admin, signed: true })).status).toBe(200);
  });

  it('a duplicate key name is 409 and adds nothing', async () => {
    await createKey(server, server.owner, 'dup', ['read']);
    const before = await call<{ data: AccessKeyListing[] }>(server, 'GET', '/api/v0/keys', { key: server.owner });
    const again = await call(server, 'POST', '/api/v0/key', { key: server.owner, body: { name: 'dup', permissions: ['admin'] } });
    expectError(again, 409, /dup/, 'conflict');
    const after = await call<{ data: AccessKeyListing[] }>(server, 'GET', '/api/v0/keys', { key: server.owner });
    expect(after.json.data).toEqual(before.json.data);
  });

  it('bad key bodies are 400 naming the parameter', async () => {
    const cases: [unknown, RegExp][] = [
      [{ permissions: ['read'] }, /^name /],
      [{ name: '', permissions: ['read'] }, /^name /],
      [{ name: 7, permissions: ['read'] }, /^name /],
      [{ name: 'x'.repeat(200), permissions: ['read'] }, /^name /],
      [{ name: 'k' }, /^permissions /],
      [{ name: 'k', permissions: [] }, /^permissions /],
      [{ name: 'k', permissions: 'admin' }, /^permissions /],
      [{ name: 'k', permissions: ['read', 'superuser'] }, /^permissions: unknown permission "superuser"/],
      [{ name: 'k', permissions: [1] }, /^permissions/],
      ['{"name": "k", "permissions": [', /JSON/],
      ['[1,2]', /JSON object/],
      ['', /JSON body/],
    ];
    for (const [body, msg] of cases) {
      const response = await call(server, 'POST', '/api/v0/key', { key: server.owner, body });
      expectError(response, 400, msg);
    }
    const list = await call<{ data: AccessKeyListing[] }>(server, 'GET', '/api/v0/keys', { key: server.owner });
    expect(list.json.data.some((k) => k.name === 'k')).toBe(false);
  });

  it('JSON sent as application/x-www-form-urlencoded still parses (the gw3 JS SDK does this)', async () => {
    const response = await call<{ data: CreatedAccessKey }>(server, 'POST', '/api/v0/key', {
      key: server.owner,
      body: JSON.stringify({ name: 'form-encoded', permissions: ['write'] }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(200);
    const del = await call(server, 'DELETE', '/api/v0/key', {
      key: server.owner,
      body: JSON.stringify({ name: 'form-encoded' }),
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(del.status).toBe(200);
  });

  it('key delete: the key stops working at once although it was cached, and disappears from the list', async () => {
    const key = await createKey(server, server.owner, 'short-lived', ['admin']);
    // Use it in both modes so it is surely in the verified-key cache.
    expect((await call(server, 'GET', '/api/v0/stats', { key })).status).toBe(200);
    expect((await call(server, 'GET', '/api/v0/stats', { key, signed: true })).status).toBe(200);
    const del = await call(server, 'DELETE', '/api/v0/key', { key: server.owner, body: { name: 'short-lived' } });
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ code: 200, msg: 'ok' });
    expectError(await call(server, 'GET', '/api/v0/stats', { key }), 401, /access key/);
    expectError(await call(server, 'GET', '/api/v0/stats', { key, signed: true }), 401, /access key/);
    const list = await call<{ data: AccessKeyListing[] }>(server, 'GET', '/api/v0/keys', { key: server.owner });
    expect(list.json.data.some((k) => k.access_key === key.access_key)).toBe(false);
  });

  it('a key can delete itself, and is refused right after', async () => {
    const key = await createKey(server, server.owner, 'self-deleting', ['admin']);
    expect((await call(server, 'DELETE', '/api/v0/key', { key, body: { name: 'self-deleting' } })).status).toBe(200);
    expect((await call(server, 'GET', '/api/v0/keys', { key })).status).toBe(401);
  });

  it('deleting an unknown name is 404 naming the key; a bad body is 400', async () => {
    expectError(await call(server, 'DELETE', '/api/v0/key', { key: server.owner, body: { name: 'never-made' } }), 404, /never-made/, 'not_found');
    expectError(await call(server, 'DELETE', '/api/v0/key', { key: server.owner, body: {} }), 400, /^name /);
    expectError(await call(server, 'DELETE', '/api/v0/key', { key: server.owner, body: { name: ['x'] } }), 400, /^name /);
    expectError(await call(server, 'DELETE', '/api/v0/key', { key: server.owner, body: 'nope{' }), 400, /JSON/);
  });

  it('keys of one account are invisible to another', async () => {
    const list = await call<{ data: AccessKeyListing[] }>(server, 'GET', '/api/v0/keys', { key: server.owner });
    expect(list.json.data.length).toBeGreaterThan(0);
    // A partner user's admin key sees only its own keys.
    await call(server, 'POST', '/api/v0/partner/user/create', {
      key: server.owner,
      body: { uuid: 'acct-iso-user', name: 'Iso', email: 'iso@example.com' },
    });
    const userKey = (
      await call<{ data: CreatedAccessKey }>(server, 'POST', '/api/v0/partner/user/key', {
        key: server.owner,
        body: { uuid: 'acct-iso-user', name: 'main', permissions: ['admin'] },
      })
    ).json.data;
    const theirs = await call<{ data: AccessKeyListing[] }>(server, 'GET', '/api/v0/keys', { key: userKey });
    expect(theirs.json.data).toEqual([{ name: 'main', access_key: userKey.access_key, permissions: ['admin'], session: false }]);
    // Deleting the owner's key by name from the user's account finds nothing.
    const ownerKeyName = list.json.data.find((k) => k.access_key === server.owner.access_key)?.name ?? '';
    expectError(await call(server, 'DELETE', '/api/v0/key', { key: userKey, body: { name: ownerKeyName } }), 404, /no access key/);
    expect((await call(server, 'GET', '/api/v0/stats', { key: server.owner })).status).toBe(200);
  });

  it('an unknown route answers 404 in the envelope', async () => {
    expectError(await call(server, 'GET', '/api/v0/nothing-here', { key: server.owner }), 404, /\/api\/v0\/nothing-here/, 'not_found');
  });
});
