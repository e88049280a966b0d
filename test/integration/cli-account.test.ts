import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountUsage } from '../../shared/api-types.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { accountCli, accountOf, createUser, ledgerOfUuid, ownerAccountRow } from '../helpers/account-api.js';

describe('pinfold account list|partner|credit beside a running server', () => {
  let server: TestServer;
  let ownerUuid: string;
  beforeAll(async () => {
    server = await startTestServer();
    ownerUuid = (await ownerAccountRow(server)).uuid;
    await createUser(server, server.owner, 'cli-user', 'cli@example.com');
  });
  afterAll(async () => {
    await server.stop();
  });

  it('list shows every account with plan, role and balance', async () => {
    const result = await accountCli(server, ['list']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^uuid\s+plan\s+role\s+balance\s+name$/);
    expect(lines).toHaveLength(3);
    const ownerLine = lines.find((line) => line.startsWith(ownerUuid));
    expect(ownerLine).toMatch(/Local\s+owner\s+1000\.00\s+owner/);
    const userLine = lines.find((line) => line.startsWith('cli-user'));
    expect(userLine).toMatch(/Free\s+-\s+0\.00\s+user cli-user <cli@example\.com>/);
  });

  it('credit adds to the balance with a ledger row, visible to the server at once', async () => {
    const result = await accountCli(server, ['credit', 'cli-user', '25.50']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe('cli-user balance 25.50\n');
    expect((await accountCli(server, ['credit', 'cli-user', '0.05'])).stdout).toBe('cli-user balance 25.55\n');
    expect((await accountOf(server, 'cli-user')).balanceCents).toBe(2555);
    expect((await ledgerOfUuid(server, 'cli-user')).map((r) => [r.kind, r.amountCents, r.balanceAfterCents, r.subjectAccountId, r.planId])).toEqual([
      ['credit', 2550, 2550, null, null],
      ['credit', 5, 2555, null, null],
    ]);

    const ownerBefore = (await ownerAccountRow(server)).balanceCents;
    expect((await accountCli(server, ['credit', ownerUuid, '1'])).code).toBe(0);
    const stats = await call<{ data: AccountUsage }>(server, 'GET', '/api/v0/stats', { key: server.owner });
    expect(stats.json.data.token_amount).toBe(((ownerBefore + 100) / 100).toFixed(2));
  });

  it('bad amounts and unknown uuids are refused and change nothing', async () => {
    const before = await accountOf(server, 'cli-user');
    const ledgerBefore = await ledgerOfUuid(server, 'cli-user');
    for (const amount of ['-5', '0', '1.234']) {
      const result = await accountCli(server, ['credit', 'cli-user', amount]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/amount/);
      expect(result.stdout).toBe('');
    }
    const unknown = await accountCli(server, ['credit', 'nobody', '5']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('nobody');
    expect(await accountOf(server, 'cli-user')).toEqual(before);
    expect(await ledgerOfUuid(server, 'cli-user')).toEqual(ledgerBefore);
  });

  it('partner on|off sets the flag; bad forms are usage errors (exit 2)', async () => {
    expect((await accountCli(server, ['partner', 'cli-user', 'on'])).code).toBe(0);
    expect((await accountOf(server, 'cli-user')).isPartner).toBe(true);
    expect((await accountCli(server, ['partner', 'cli-user', 'off'])).code).toBe(0);
    expect((await accountOf(server, 'cli-user')).isPartner).toBe(false);

    const bad = await accountCli(server, ['partner', 'cli-user', 'maybe']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('account partner <uuid> on|off');
    expect((await accountOf(server, 'cli-user')).isPartner).toBe(false);
    const unknown = await accountCli(server, ['partner', 'nobody', 'on']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('nobody');
    const missing = await accountCli(server, ['credit', 'cli-user']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('account credit <uuid> <amount>');
    const sub = await accountCli(server, ['frobnicate']);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toContain('unknown account command frobnicate');
  });
});

describe('pinfold account on a stopped data folder', () => {
  it('works without a server', async () => {
    const server = await startTestServer();
    const dataDir = server.dataDir;
    const ownerUuid = (await ownerAccountRow(server)).uuid;
    await server.app.close();
    try {
      const credit = await accountCli({ dataDir }, ['credit', ownerUuid, '10']);
      expect(credit).toMatchObject({ code: 0, stdout: `${ownerUuid} balance 1010.00\n` });
      const list = await accountCli({ dataDir }, ['list']);
      expect(list.stdout).toMatch(/Local\s+owner\s+1010\.00/);
    } finally {
      await server.stop();
    }
  });
});
