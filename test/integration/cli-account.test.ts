import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountUsage } from '../../shared/api-types.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { accountOf, createUser, ledgerOfUuid, ownerAccountRow, runCli } from '../helpers/account-api.js';

describe('pinfold account list|partner|credit beside a running server', () => {
  let server: TestServer;
  let ownerUuid: string;
  beforeAll(async () => {
    server = await startTestServer();
    ownerUuid = ownerAccountRow(server).uuid;
    await createUser(server, server.owner, 'cli-user', 'cli@example.com');
  });
  afterAll(async () => {
    await server.stop();
  });

  it('list shows every account with plan, role and balance', async () => {
    const result = await runCli(['account', 'list', '--data', server.dataDir]);
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
    const result = await runCli(['account', 'credit', 'cli-user', '25.50', '--data', server.dataDir]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe('cli-user balance 25.50\n');
    expect((await runCli(['account', 'credit', 'cli-user', '0.05', '--data', server.dataDir])).stdout).toBe('cli-user balance 25.55\n');
    expect(accountOf(server, 'cli-user').balanceCents).toBe(2555);
    expect(ledgerOfUuid(server, 'cli-user').map((r) => [r.kind, r.amountCents, r.balanceAfterCents, r.subjectAccountId, r.planId])).toEqual([
      ['credit', 2550, 2550, null, null],
      ['credit', 5, 2555, null, null],
    ]);

    const ownerBefore = ownerAccountRow(server).balanceCents;
    expect((await runCli(['account', 'credit', ownerUuid, '1', '--data', server.dataDir])).code).toBe(0);
    const stats = await call<{ data: AccountUsage }>(server, 'GET', '/api/v0/stats', { key: server.owner });
    expect(stats.json.data.token_amount).toBe(((ownerBefore + 100) / 100).toFixed(2));
  });

  it('bad amounts and unknown uuids are refused and change nothing', async () => {
    const before = accountOf(server, 'cli-user');
    const ledgerBefore = ledgerOfUuid(server, 'cli-user');
    for (const amount of ['-5', '0', '1.234']) {
      const result = await runCli(['account', 'credit', 'cli-user', amount, '--data', server.dataDir]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/amount/);
      expect(result.stdout).toBe('');
    }
    const unknown = await runCli(['account', 'credit', 'nobody', '5', '--data', server.dataDir]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('nobody');
    expect(accountOf(server, 'cli-user')).toEqual(before);
    expect(ledgerOfUuid(server, 'cli-user')).toEqual(ledgerBefore);
  });

  it('partner on|off sets the flag; bad forms are usage errors (exit 2)', async () => {
    expect((await runCli(['account', 'partner', 'cli-user', 'on', '--data', server.dataDir])).code).toBe(0);
    expect(accountOf(server, 'cli-user').isPartner).toBe(true);
    expect((await runCli(['account', 'partner', 'cli-user', 'off', '--data', server.dataDir])).code).toBe(0);
    expect(accountOf(server, 'cli-user').isPartner).toBe(false);

    const bad = await runCli(['account', 'partner', 'cli-user', 'maybe', '--data', server.dataDir]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('account partner <uuid> on|off');
    expect(accountOf(server, 'cli-user').isPartner).toBe(false);
    const unknown = await runCli(['account', 'partner', 'nobody', 'on', '--data', server.dataDir]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('nobody');
    const missing = await runCli(['account', 'credit', 'cli-user', '--data', server.dataDir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('account credit <uuid> <amount>');
    const sub = await runCli(['account', 'frobnicate', '--data', server.dataDir]);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toContain('unknown account command frobnicate');
  });
});

describe('pinfold account on a stopped data folder', () => {
  it('works without a server', async () => {
    const server = await startTestServer();
    const dataDir = server.dataDir;
    const ownerUuid = ownerAccountRow(server).uuid;
    await server.app.close();
    try {
      const credit = await runCli(['account', 'credit', ownerUuid, '10', '--data', dataDir]);
      expect(credit).toMatchObject({ code: 0, stdout: `${ownerUuid} balance 1010.00\n` });
      const list = await runCli(['account', 'list', '--data', dataDir]);
      expect(list.stdout).toMatch(/Local\s+owner\s+1010\.00/);
    } finally {
      await server.stop();
    }
  });
});
