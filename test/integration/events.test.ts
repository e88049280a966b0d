import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountUsage, PinRecord, SessionKey } from '../../shared/api-types.js';
import { call, startTestServer, testClock, type TestServer } from '../helpers/test-server.js';
import { createKey, createUser, createUserKey, expectError } from '../helpers/account-api.js';
import { openEvents, type EventReader } from '../helpers/event-stream-reader.js';
import { randomData, uploadCid } from './uploads-helpers.js';
import { until } from '../helpers/until.js';

/** Issue 12, api12.md section 4: GET /api/v0/events, read as the window reads it (fetch streaming). */

describe('GET /api/v0/events', () => {
  let server: TestServer;
  const clock = testClock();
  const readers: EventReader[] = [];
  beforeAll(async () => {
    // The test moves the server's clock past a session's 7 days; requests carry the real time as ts.
    server = await startTestServer({ tsWindowSeconds: 30 * 24 * 3600 }, {}, clock);
  });
  afterAll(async () => {
    for (const reader of readers) reader.close();
    await server.stop();
  });

  async function open(key = server.owner): Promise<EventReader> {
    const reader = await openEvents(server, key);
    readers.push(reader);
    return reader;
  }

  it("answers an open text/event-stream: retry 3000 first, then the account's usage (the stats object)", async () => {
    const reader = await open();
    expect(reader.status).toBe(200);
    expect(reader.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(reader.headers.get('cache-control')).toBe('no-store');
    expect(reader.headers.get('x-accel-buffering')).toBe('no');
    const usage = await reader.next('usage');
    const stats = await call<{ data: AccountUsage }>(server, 'GET', '/api/v0/stats', { key: server.owner });
    expect(usage).toEqual(stats.json.data);
    expect(reader.controls[0]).toBe('retry: 3000');
    reader.close();
  });

  it('usage, pin, name and key changes arrive as they happen; another account sees none of them', async () => {
    await createUser(server, server.owner, 'events-user');
    const userKey = await createUserKey(server, server.owner, 'events-user', 'admin', ['admin']);
    const theirs = await open(userKey);
    expect((await theirs.next('usage')).name).toBe('user events-user');
    const mine = await open();
    const before = await mine.next('usage');

    const bytes = randomData(2048);
    const cid = await uploadCid(server, server.owner, bytes);
    const afterUpload = await mine.next('usage', (usage) => usage.ingress === before.ingress + 2048);
    expect(afterUpload.ingress).toBe(before.ingress + 2048);

    expect((await call(server, 'POST', '/api/v0/pin/add', { key: server.owner, query: { arg: cid, name: 'live' } })).status).toBe(200);
    const pinned = (await mine.next('pin')) as PinRecord;
    expect(pinned).toEqual({ name: 'live', cid, status: 'pinned', size: 2048, created_at: expect.any(Number) });
    expect((await call(server, 'POST', '/api/v0/pin/rename', { key: server.owner, body: { cid, name: 'renamed' } })).status).toBe(200);
    expect(await mine.next('pin')).toMatchObject({ cid, name: 'renamed', status: 'pinned' });
    expect((await call(server, 'POST', '/api/v0/pin/rm', { key: server.owner, query: { arg: cid } })).status).toBe(200);
    expect(await mine.next('pin')).toMatchObject({ cid, status: 'unpinning' });
    expect((await call(server, 'POST', '/api/v0/repo/gc', { key: server.owner })).status).toBe(200);
    expect(await mine.next('pin')).toEqual({ cid, removed: true });

    const created = await call<{ data: { name: string } }>(server, 'POST', '/api/v0/name/create', { key: server.owner, query: { arg: cid } });
    expect(created.status).toBe(200);
    const name = created.json.data.name;
    expect(await mine.next('name')).toEqual({ name, value: cid, alias: '', created_at: expect.any(Number), publish_at: expect.any(Number), public: false });
    expect((await call(server, 'POST', '/api/v0/ipns/alias', { key: server.owner, body: { name, alias: 'site' } })).status).toBe(200);
    expect(await mine.next('name')).toMatchObject({ name, alias: 'site' });
    expect((await call(server, 'POST', '/api/v0/name/rm', { key: server.owner, query: { key: name } })).status).toBe(200);
    expect(await mine.next('name')).toEqual({ name, removed: true });

    const key = await createKey(server, server.owner, 'events-ci', ['read']);
    expect(await mine.next('key')).toEqual({ access_key: key.access_key });
    expect((await call(server, 'DELETE', '/api/v0/key', { key: server.owner, body: { name: 'events-ci' } })).status).toBe(200);
    expect(await mine.next('key')).toEqual({ access_key: key.access_key, removed: true });
    const text = JSON.stringify(mine.pending());
    expect(text).not.toContain(key.access_secret);

    // The user's next event is its own key: nothing of the owner's came before it.
    const ownKey = await createUserKey(server, server.owner, 'events-user', 'second', ['read']);
    const next = await theirs.next();
    expect(next).toEqual({ access_key: ownKey.access_key });
    expect(theirs.pending()).toEqual([]);
  });

  // Sync events: sync-events.test.ts (sync folders are SQLite-only by design).

  it('a stream closes when its key is deleted', async () => {
    const key = await createKey(server, server.owner, 'events-doomed', ['admin']);
    const reader = await open(key);
    await reader.next('usage');
    expect((await call(server, 'DELETE', '/api/v0/key', { key: server.owner, body: { name: 'events-doomed' } })).status).toBe(200);
    await reader.ended();
  });

  it("a session's stream closes when the session expires", async () => {
    const code = (await call<{ data: { code: string } }>(server, 'POST', '/api/v0/session/code', { key: server.owner })).json.data.code;
    const session = ((await (await fetch(`${server.url}/api/v0/session?code=${code}`, { method: 'POST' })).json()) as { data: SessionKey }).data;
    const reader = await open(session);
    await reader.next('usage');
    clock.advance(7 * 24 * 3600 * 1000);
    // Any event for the account finds the session over and ends the stream instead of writing to it.
    await createKey(server, server.owner, 'events-after-expiry', ['read']);
    await reader.ended();
    expectError(await call(server, 'GET', '/api/v0/stats', { key: session }), 401, /^session expired$/);
  });

  it('at most 8 open streams per access key: the 9th is 429 in the envelope; closing one makes room', async () => {
    const key = await createKey(server, server.owner, 'events-many', ['admin']);
    const eight = await Promise.all(Array.from({ length: 8 }, () => open(key)));
    for (const reader of eight) expect(reader.status).toBe(200);
    const ninth = await call(server, 'GET', '/api/v0/events', { key });
    expectError(ninth, 429, /at most 8 event streams/);
    // Another key of the same account is not limited by this one's streams.
    const other = await open();
    expect(other.status).toBe(200);
    eight[0]?.close();
    const again = await until('room for another stream', async () => {
      const reader = await openEvents(server, key);
      if (reader.status === 200) return reader;
      reader.close();
      return undefined;
    });
    readers.push(again);
    expect(again.status).toBe(200);
  });

  it('refused like any account call: no ts 400 (checked once, at connect), no key 401, a key without admin 403', async () => {
    expectError(await call(server, 'GET', '/api/v0/events', { key: server.owner, noTs: true }), 400, /ts is required/);
    expectError(await call(server, 'GET', '/api/v0/events', {}), 401, /X-Access-Key/);
    expectError(await call(server, 'GET', '/api/v0/events', { key: { ...server.owner, access_secret: 'x'.repeat(64) } }), 401, /invalid access key or secret/);
    const reader = await createKey(server, server.owner, 'events-reader', ['read', 'write', 'pin', 'unpin']);
    expectError(await call(server, 'GET', '/api/v0/events', { key: reader }), 403, /admin/);
  });
});
