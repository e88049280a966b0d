import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedAccessKey, ListEnvelope, PartnerUserSummary } from '../../shared/api-types.js';
import { call, startTestServer, testClock, type TestServer } from '../helpers/test-server.js';
import { accountCli, createKey, createUser, createUserKey, expectError } from '../helpers/account-api.js';
import { randomData, uploadCid } from './uploads-helpers.js';

/** Issue 12, api12.md section 6: GET /api/v0/partner/users. */

async function users(server: TestServer, key: CreatedAccessKey, query: Record<string, string | number> = {}) {
  return call<ListEnvelope<PartnerUserSummary>>(server, 'GET', '/api/v0/partner/users', { key, query });
}

describe('GET /api/v0/partner/users', () => {
  let server: TestServer;
  const clock = testClock();
  let createdAt: number[];
  beforeAll(async () => {
    server = await startTestServer({ tsWindowSeconds: 3600 }, {}, clock);
    createdAt = [];
    for (const uuid of ['pu-first', 'pu-second', 'pu-third']) {
      createdAt.push(Math.floor(clock.nowMs() / 1000));
      await createUser(server, server.owner, uuid);
      clock.advance(60_000);
    }
    const second = await createUserKey(server, server.owner, 'pu-second', 'main', ['admin']);
    const cid = await uploadCid(server, second, randomData(1500));
    expect((await call(server, 'POST', '/api/v0/pin/add', { key: second, query: { arg: cid } })).status).toBe(200);
    expect((await call(server, 'POST', '/api/v0/partner/user/update-plan', { key: server.owner, body: { uuid: 'pu-third', plan_id: 2 } })).status).toBe(200);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('lists the users the partner created, newest first, with plan and pinned usage, and the total', async () => {
    const response = await users(server, server.owner);
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      code: 200,
      total: 3,
      data: [
        { uuid: 'pu-third', name: 'user pu-third', plan: 'Starter', created_at: createdAt[2], pinned_bytes: 0, pinned_count: 0 },
        { uuid: 'pu-second', name: 'user pu-second', plan: 'Free', created_at: createdAt[1], pinned_bytes: 1500, pinned_count: 1 },
        { uuid: 'pu-first', name: 'user pu-first', plan: 'Free', created_at: createdAt[0], pinned_bytes: 0, pinned_count: 0 },
      ],
    });
  });

  it("pages with limit and start like the spec's lists", async () => {
    expect((await users(server, server.owner, { limit: 2 })).json.data.map((user) => user.uuid)).toEqual(['pu-third', 'pu-second']);
    const second = await users(server, server.owner, { limit: 2, start: 2 });
    expect(second.json).toMatchObject({ total: 3 });
    expect(second.json.data.map((user) => user.uuid)).toEqual(['pu-first']);
    expect((await users(server, server.owner, { start: 3 })).json).toEqual({ code: 200, data: [], total: 3 });
  });

  it('a partner sees only the users it created', async () => {
    expect((await accountCli(server, ['partner', 'pu-first', 'on'])).code).toBe(0);
    const firstKey = await createUserKey(server, server.owner, 'pu-first', 'partner-admin', ['admin']);
    expect((await users(server, firstKey)).json).toEqual({ code: 200, data: [], total: 0 });
    await createUser(server, firstKey, 'pu-grandchild');
    const theirs = await users(server, firstKey);
    expect(theirs.json.total).toBe(1);
    expect(theirs.json.data.map((user) => user.uuid)).toEqual(['pu-grandchild']);
    expect((await users(server, server.owner)).json.data.map((user) => user.uuid)).not.toContain('pu-grandchild');
  });

  it('refused: a non-partner 403, an owner key without admin 403, bad paging 400, no ts 400, no key 401', async () => {
    const second = await createUserKey(server, server.owner, 'pu-second', 'admin-2', ['admin']);
    expectError(await users(server, second), 403, /not a qualified partner/, 'permission');
    const pinner = await createKey(server, server.owner, 'pu-pinner', ['pin', 'read', 'write', 'unpin']);
    expectError(await users(server, pinner), 403, /admin/);
    expectError(await users(server, server.owner, { limit: 0 }), 400, /limit must be an integer from 1 to 1000/);
    expectError(await users(server, server.owner, { limit: 1001 }), 400, /limit/);
    expectError(await users(server, server.owner, { start: -1 }), 400, /start/);
    expectError(await users(server, server.owner, { start: 'x' }), 400, /start/);
    expectError(await call(server, 'GET', '/api/v0/partner/users', { key: server.owner, noTs: true }), 400, /ts is required/);
    expectError(await call(server, 'GET', '/api/v0/partner/users', {}), 401, /X-Access-Key/);
  });
});
