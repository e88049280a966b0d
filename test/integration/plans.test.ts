import { writeFileSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Plan, PartnerUserUsage } from '../../shared/api-types.js';
import { call, makeTempDir, startTestServer, type TestServer } from '../helpers/test-server.js';
import { createUser, expectError, ownerAccountRow } from '../helpers/account-api.js';

const GiB = 1024 ** 3;

const CUSTOM: Plan[] = [
  { id: 1, name: 'Hobby', price: '0.00', pinned_count_limit: 5, pinned_bytes_limit: 1000, ingress_limit: 2000, egress_limit: 3000, ipns_limit: 1 },
  { id: 9, name: 'Team', price: '12.34', pinned_count_limit: 50, pinned_bytes_limit: 10_000, ingress_limit: 20_000, egress_limit: 30_000, ipns_limit: 4 },
];

describe('plans', () => {
  const servers: TestServer[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.stop();
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it('the built-in list, without headers and without ts; Local is not listed', async () => {
    const server = await startTestServer();
    servers.push(server);
    const response = await call<{ code: number; msg: string; data: Plan[] }>(server, 'GET', '/api/v0/plans', { noTs: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.json.code).toBe(200);
    expect(response.json.msg).toBe('ok');
    expect(response.json.data.map((p) => [p.id, p.name, p.price])).toEqual([
      [1, 'Free', '0.00'],
      [2, 'Starter', '4.99'],
      [3, 'Pro', '9.99'],
      [4, 'Business', '49.99'],
    ]);
    expect(response.json.data[0]).toEqual({
      id: 1,
      name: 'Free',
      price: '0.00',
      pinned_count_limit: 100,
      pinned_bytes_limit: GiB,
      ingress_limit: 5 * GiB,
      egress_limit: 5 * GiB,
      ipns_limit: 3,
    });
    // Headers, if a client sends them anyway, do not matter; a stale ts does not either.
    expect((await call(server, 'GET', '/api/v0/plans', { key: { access_key: 'x', access_secret: 'y' }, query: { ts: 1 } })).status).toBe(200);
  });

  it('<data>/plans.json replaces the built-in plans: listed, given to new users, charged on update-plan', async () => {
    const dataDir = await makeTempDir();
    dirs.push(dataDir);
    writeFileSync(join(dataDir, 'plans.json'), JSON.stringify(CUSTOM));
    const server = await startTestServer({ dataDir });
    servers.push(server);
    const response = await call<{ data: Plan[] }>(server, 'GET', '/api/v0/plans', { noTs: true });
    expect(response.json.data).toEqual(CUSTOM);

    await createUser(server, server.owner, 'custom-user');
    const stats = await call<{ data: PartnerUserUsage }>(server, 'GET', '/api/v0/partner/user/stats', { key: server.owner, query: { uuid: 'custom-user' } });
    expect(stats.json.data).toMatchObject({ plan: 'Hobby', pinned_count_limit: 5, ipns_limit: 1 });

    expectError(
      await call(server, 'POST', '/api/v0/partner/user/update-plan', { key: server.owner, body: { uuid: 'custom-user', plan_id: 2 } }),
      400,
      /plan_id 2/,
    );
    const before = (await ownerAccountRow(server)).balanceCents;
    expect((await call(server, 'POST', '/api/v0/partner/user/update-plan', { key: server.owner, body: { uuid: 'custom-user', plan_id: 9 } })).status).toBe(200);
    expect((await ownerAccountRow(server)).balanceCents).toBe(before - 1234);
    const after = await call<{ data: PartnerUserUsage }>(server, 'GET', '/api/v0/partner/user/stats', { key: server.owner, query: { uuid: 'custom-user' } });
    expect(after.json.data).toMatchObject({ plan: 'Team', pinned_count_limit: 50, pinned_bytes_limit: 10_000 });
  });

  it('a malformed plans.json fails the start with a message naming the file, and leaves no lock behind', async () => {
    const dataDir = await makeTempDir();
    dirs.push(dataDir);
    for (const text of ['{ not json', JSON.stringify([{ id: 1, name: 'Free' }])]) {
      writeFileSync(join(dataDir, 'plans.json'), text);
      await expect(startTestServer({ dataDir })).rejects.toThrow(join(dataDir, 'plans.json'));
      expect(await readdir(dataDir)).not.toContain('pinfold.lock');
    }
  });
});
