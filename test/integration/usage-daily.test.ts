import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DailyUsage } from '../../shared/api-types.js';
import { call, startTestServer, testClock, type TestServer } from '../helpers/test-server.js';
import { createKey, createUser, createUserKey, expectError } from '../helpers/account-api.js';
import { serverNumber } from '../helpers/suite-metadata.js';
import { gatewayGet, randomData, stats, uploadCid } from './uploads-helpers.js';
import { until } from '../helpers/until.js';

/** Issue 12, api12.md section 3: GET /api/v0/stats/daily. */

const DAY_MS = 24 * 3600 * 1000;

function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

async function daily(server: TestServer, query: Record<string, string | number> = {}, key = server.owner) {
  return call<{ code: number; msg: string; data: DailyUsage[] }>(server, 'GET', '/api/v0/stats/daily', { key, query });
}

describe('GET /api/v0/stats/daily', () => {
  let server: TestServer;
  const clock = testClock();
  beforeAll(async () => {
    server = await startTestServer({ tsWindowSeconds: 10 * 24 * 3600 }, {}, clock);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('30 days by default, oldest first, ending today; today shows the ingress, egress and pins of today', async () => {
    const empty = await daily(server);
    expect(empty.status).toBe(200);
    expect(empty.json.code).toBe(200);
    expect(empty.json.data).toHaveLength(30);
    expect(empty.json.data[29]).toEqual({ day: dayOf(clock.nowMs()), ingress: 0, egress: 0, pinned_bytes: 0, pinned_count: 0 });
    expect(empty.json.data[0]?.day).toBe(dayOf(clock.nowMs() - 29 * DAY_MS));

    const bytes = randomData(3000);
    const cid = await uploadCid(server, server.owner, bytes);
    expect((await gatewayGet(server, server.owner, `/ipfs/${cid}`)).status).toBe(200);
    expect((await call(server, 'POST', '/api/v0/pin/add', { key: server.owner, query: { arg: cid, name: 'daily' } })).status).toBe(200);
    const now = await stats(server, server.owner);
    const today = (await daily(server, { days: 1 })).json.data;
    expect(today).toEqual([{ day: dayOf(clock.nowMs()), ingress: 3000, egress: 3000, pinned_bytes: now.pinned_bytes, pinned_count: 1 }]);
    expect(now).toMatchObject({ ingress: 3000, egress: 3000, pinned_count: 1 });
  });

  it('a quiet day has no traffic and keeps the pinned values; yesterday keeps its own numbers', async () => {
    // Egress is metered in memory and written (to its day) every 250 ms: let today's be written before tomorrow comes.
    await until('egress written to usage_daily', async () => (await serverNumber(server, 'SELECT sum(egress) AS n FROM usage_daily')) === 3000 || undefined);
    const before = (await daily(server, { days: 1 })).json.data[0] as DailyUsage;
    clock.advance(DAY_MS);
    const series = (await daily(server, { days: 2 })).json.data;
    expect(series).toEqual([before, { day: dayOf(clock.nowMs()), ingress: 0, egress: 0, pinned_bytes: before.pinned_bytes, pinned_count: 1 }]);
    expect((await daily(server, { days: 366 })).json.data).toHaveLength(366);
  });

  it('an account sees only its own days', async () => {
    await createUser(server, server.owner, 'daily-user');
    const user = await createUserKey(server, server.owner, 'daily-user', 'admin', ['admin']);
    const theirs = (await daily(server, { days: 3 }, user)).json.data;
    expect(theirs.every((day) => day.ingress === 0 && day.egress === 0 && day.pinned_count === 0)).toBe(true);
  });

  it('bad days are 400 naming the parameter; admin only like stats; ts required', async () => {
    for (const days of ['0', '367', '-1', '1.5', 'abc', '30x', '1e1']) {
      expectError(await daily(server, { days }), 400, /days must be an integer from 1 to 366/);
    }
    const twice = await fetch(`${server.url}/api/v0/stats/daily?ts=${Math.floor(Date.now() / 1000)}&days=1&days=2`, {
      headers: { 'X-Access-Key': server.owner.access_key, 'X-Access-Secret': server.owner.access_secret },
    });
    expect(twice.status).toBe(400);
    const reader = await createKey(server, server.owner, 'daily-reader', ['read', 'write', 'pin', 'unpin']);
    expectError(await daily(server, {}, reader), 403, /admin/);
    expectError(await call(server, 'GET', '/api/v0/stats/daily', { key: server.owner, noTs: true }), 400, /ts is required/);
    expectError(await call(server, 'GET', '/api/v0/stats/daily', {}), 401, /X-Access-Key/);
  });
});
