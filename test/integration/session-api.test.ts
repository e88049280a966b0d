import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { chmod, mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessKeyView, AccountUsage, CreatedAccessKey, SessionKey, SessionsRevoked, SignInCode, SignInHandoff } from '../../shared/api-types.js';
import { MAX_LIVE_SESSIONS, SESSION_BURST_SECONDS } from '../../main/accounts/session-keys.js';
import { call, makeTempDir, startTestServer, testClock, type TestServer } from '../helpers/test-server.js';
import { createKey, createUser, createUserKey, expectError } from '../helpers/account-api.js';
import { openEvents } from '../helpers/event-stream-reader.js';

/** Issue 12, api12.md section 2: one-time sign-in codes, session keys, sign-out. */

const DAY_MS = 24 * 3600 * 1000;

async function issueCode(server: TestServer, key: CreatedAccessKey = server.owner) {
  return call<{ code: number; msg: string; data: SignInCode }>(server, 'POST', '/api/v0/session/code', { key });
}

async function redeem(server: TestServer, code: string | undefined, headers: Record<string, string> = {}) {
  const query = code === undefined ? '' : `?code=${encodeURIComponent(code)}`;
  const response = await fetch(`${server.url}/api/v0/session${query}`, { method: 'POST', headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: JSON.parse(text) as { code: number; msg: string; data: SessionKey } };
}

async function keysOf(server: TestServer, key: CreatedAccessKey = server.owner): Promise<AccessKeyView[]> {
  const response = await call<{ data: AccessKeyView[] }>(server, 'GET', '/api/v0/keys', { key });
  expect(response.status).toBe(200);
  return response.json.data;
}

async function handoff(server: TestServer, query: Record<string, string> = {}, key: CreatedAccessKey = server.owner) {
  return call<{ code: number; msg: string; data: SignInHandoff }>(server, 'POST', '/api/v0/session/handoff', { key, query });
}

/** The code a handoff page leads to, and where: read as the browser would. */
function pageLink(path: string): URL {
  const target = /location\.replace\(("[^"]*")\)/.exec(readFileSync(path, 'utf8'))?.[1];
  return new URL(JSON.parse(target ?? '""') as string);
}

const sessionKeys = async (server: TestServer) => (await keysOf(server)).filter((key) => key.session);

describe('sign-in codes and session keys', () => {
  let server: TestServer;
  let runtime: string;
  const clock = testClock();
  beforeAll(async () => {
    runtime = join(await makeTempDir('pinfold-session-run-'), 'run');
    await mkdir(runtime);
    await chmod(runtime, 0o700);
    // The test moves the server's clock by days; requests carry the real time as ts.
    server = await startTestServer({ tsWindowSeconds: 30 * 24 * 3600 }, { XDG_RUNTIME_DIR: runtime }, clock);
  });
  afterAll(async () => {
    await server.stop();
    await rm(dirname(runtime), { recursive: true, force: true });
  });

  it('the owner gets a code with its sign-in link; the code buys one admin session key, listed as a session', async () => {
    const issued = await issueCode(server);
    expect(issued.status).toBe(200);
    const { code, url, expires_at } = issued.json.data;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url).toBe(`${server.url}/signin?code=${code}`);
    expect(expires_at).toBe(Math.floor(clock.nowMs() / 1000) + 300);

    const redeemed = await redeem(server, code);
    expect(redeemed.status).toBe(200);
    expect(redeemed.headers.get('content-type')).toMatch(/^application\/json/);
    const session = redeemed.json.data;
    expect(Object.keys(session).sort()).toEqual(['access_key', 'access_secret', 'expires_at', 'name']);
    expect(session.access_secret).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(session.expires_at).toBe(Math.floor(clock.nowMs() / 1000) + 7 * 24 * 3600);
    expect(session.name).toMatch(/^Browser session \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC( \(\d+\))?$/);

    const stats = await call<{ data: AccountUsage }>(server, 'GET', '/api/v0/stats', { key: session });
    expect(stats.status).toBe(200);
    expect(stats.json.data.name).toBe('owner');
    expect((await call(server, 'GET', '/api/v0/stats', { key: session, signed: true })).status).toBe(200);
    // An admin key of the owner: it may even ask for the next code.
    expect((await issueCode(server, session)).status).toBe(200);

    const keys = await keysOf(server);
    expect(keys.find((key) => key.access_key === session.access_key)).toEqual({
      name: session.name,
      access_key: session.access_key,
      permissions: ['admin'],
      session: true,
      expires_at: session.expires_at,
    });
    expect(keys.find((key) => key.access_key === server.owner.access_key)).toMatchObject({ session: false });
    expect(keys.find((key) => key.access_key === server.owner.access_key)).not.toHaveProperty('expires_at');
    expect(JSON.stringify(keys)).not.toContain(session.access_secret);
  });

  it('a code works once: the second use is 401 and makes no key', async () => {
    const { code } = (await issueCode(server)).json.data;
    expect((await redeem(server, code)).status).toBe(200);
    const before = await keysOf(server);
    const again = await redeem(server, code);
    expect(again.status).toBe(401);
    expect(again.json).toEqual({ code: 401, msg: 'sign-in code is unknown, already used or expired', error: 'unauthenticated' });
    expect(await keysOf(server)).toEqual(before);
  });

  it('bad codes: unknown 401, malformed or missing 400; credentials sent along change nothing; no key is made', async () => {
    const before = await keysOf(server);
    const unknown = await redeem(server, 'A'.repeat(43));
    expect(unknown.status).toBe(401);
    expect(unknown.json.msg).toMatch(/unknown, already used or expired/);
    const withOwnerHeaders = await redeem(server, 'B'.repeat(43), { 'X-Access-Key': server.owner.access_key, 'X-Access-Secret': server.owner.access_secret });
    expect(withOwnerHeaders.status).toBe(401);
    for (const [code, msg] of [
      [undefined, /code is required/],
      ['', /code is required/],
      ['short', /code is malformed/],
      ['A'.repeat(44), /code is malformed/],
      [`${'A'.repeat(42)}=`, /code is malformed/],
      [`${'A'.repeat(42)}/`, /code is malformed/],
    ] as const) {
      const response = await redeem(server, code);
      expect(response.status, String(code)).toBe(400);
      expect(response.json).toEqual({ code: 400, msg: expect.stringMatching(msg), error: 'bad_input', param: 'code' });
    }
    const twice = await fetch(`${server.url}/api/v0/session?code=${'A'.repeat(43)}&code=${'A'.repeat(43)}`, { method: 'POST' });
    expect(twice.status).toBe(400);
    expect(await keysOf(server)).toEqual(before);
  });

  it("only the owner may ask for a code: a partner user's admin key and an owner key without admin are 403; no credentials 401; no ts 400", async () => {
    await createUser(server, server.owner, 'session-user');
    const userAdmin = await createUserKey(server, server.owner, 'session-user', 'admin', ['admin']);
    expectError(await issueCode(server, userAdmin), 403, /only the owner/);
    const reader = await createKey(server, server.owner, 'session-reader', ['read', 'write', 'pin', 'unpin']);
    expectError(await issueCode(server, reader), 403, /admin/);
    expectError(await call(server, 'POST', '/api/v0/session/code', {}), 401, /X-Access-Key/);
    expectError(await call(server, 'POST', '/api/v0/session/code', { key: server.owner, noTs: true }), 400, /ts is required/);
  });

  it('sign-out deletes the calling session key (then 401); an ordinary key is 400 and keeps working', async () => {
    const { code } = (await issueCode(server)).json.data;
    const session = (await redeem(server, code)).json.data;
    const out = await call(server, 'DELETE', '/api/v0/session', { key: session });
    expect(out.status).toBe(200);
    expect(out.json).toEqual({ code: 200, msg: 'ok' });
    expectError(await call(server, 'GET', '/api/v0/stats', { key: session }), 401, /invalid access key or secret/);
    expect((await keysOf(server)).some((key) => key.access_key === session.access_key)).toBe(false);

    const before = await keysOf(server);
    expectError(await call(server, 'DELETE', '/api/v0/session', { key: server.owner }), 400, /not a session key/);
    expect(await keysOf(server)).toEqual(before);
    expectError(await call(server, 'DELETE', '/api/v0/session', {}), 401, /X-Access-Key/);
  });

  it('a code expires after 5 minutes; a session key after 7 days (401 "session expired"), while ordinary keys go on', async () => {
    const stale = (await issueCode(server)).json.data;
    const { code } = (await issueCode(server)).json.data;
    const session = (await redeem(server, code)).json.data;
    expect((await call(server, 'GET', '/api/v0/stats', { key: session })).status).toBe(200);

    clock.advance(300_000);
    expect((await redeem(server, stale.code)).status).toBe(401);

    clock.advance(7 * DAY_MS - 300_000 - 1000);
    expect((await call(server, 'GET', '/api/v0/stats', { key: session })).status).toBe(200);
    clock.advance(1000);
    expectError(await call(server, 'GET', '/api/v0/stats', { key: session }), 401, /^session expired$/);
    expectError(await call(server, 'GET', '/api/v0/stats', { key: session, signed: true }), 401, /^session expired$/);
    expect((await call(server, 'GET', '/api/v0/stats', { key: server.owner })).status).toBe(200);
  });

  it('a handoff page: the owner gets the path of a 0600 page that leads to the sign-in link (and next); it signs in once and is then gone', async () => {
    const next = `/view?path=${encodeURIComponent('/ipfs/bafkqaaa/a b.txt')}`;
    const answer = await handoff(server, { next });
    expect(answer.status, answer.text).toBe(200);
    const { path, expires_at } = answer.json.data;
    expect(Object.keys(answer.json.data).sort()).toEqual(['expires_at', 'path']);
    expect(answer.text).not.toMatch(/signin|code=|[A-Za-z0-9_-]{43}/);
    expect(expires_at).toBe(Math.floor(clock.nowMs() / 1000) + 300);
    if (process.platform !== 'win32') {
      expect(dirname(dirname(path))).toBe(runtime);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    }
    const link = pageLink(path);
    expect(`${link.origin}${link.pathname}`).toBe(`${server.url}/signin`);
    expect(link.searchParams.get('next')).toBe(next);
    const code = link.searchParams.get('code') ?? '';
    const redeemed = await redeem(server, code);
    expect(redeemed.status).toBe(200);
    expect((await call(server, 'GET', '/api/v0/stats', { key: redeemed.json.data })).status).toBe(200);
    expect(existsSync(path)).toBe(false);
    expect((await redeem(server, code)).status).toBe(401);
  });

  it('a handoff page is deleted when its code expires unused, and every page with the service when it stops', async () => {
    const stale = (await handoff(server)).json.data.path;
    const staleCode = pageLink(stale).searchParams.get('code') ?? '';
    clock.advance(300_000);
    // Expired codes are let go when the service next hands out or takes a code (and by a timer at their expiry).
    const fresh = (await handoff(server)).json.data.path;
    expect(existsSync(stale)).toBe(false);
    expect((await redeem(server, staleCode)).status).toBe(401);

    const other = await startTestServer({}, { XDG_RUNTIME_DIR: runtime });
    const itsPage = (await handoff(other, {}, other.owner)).json.data.path;
    expect(existsSync(itsPage)).toBe(true);
    await other.stop();
    expect(existsSync(itsPage)).toBe(false);
    expect(existsSync(dirname(itsPage))).toBe(false);
    expect(existsSync(fresh)).toBe(true);
  });

  it('handoff: bad next or session is 400 and writes nothing; only the owner may ask (403), with credentials (401) and ts (400)', async () => {
    const folder = dirname((await handoff(server)).json.data.path);
    const before = readdirSync(folder).sort();
    for (const [query, msg] of [
      [{ next: 'https://evil.example/' }, /next must be a page of the window/],
      [{ next: '//evil.example/view' }, /next must be a page of the window/],
      [{ next: '/a b' }, /next must be a page of the window/],
      [{ next: '' }, /next must be a page of the window/],
      [{ session: 'all' }, /session must be new or shared/],
    ] as const) {
      expectError(await handoff(server, query), 400, msg);
    }
    const twice = await fetch(`${server.url}/api/v0/session/handoff?next=%2Fa&next=%2Fb&ts=${Math.floor(Date.now() / 1000)}`, {
      method: 'POST',
      headers: { 'X-Access-Key': server.owner.access_key, 'X-Access-Secret': server.owner.access_secret },
    });
    expect(twice.status).toBe(400);
    await createUser(server, server.owner, 'handoff-user');
    const userAdmin = await createUserKey(server, server.owner, 'handoff-user', 'admin', ['admin']);
    expectError(await handoff(server, {}, userAdmin), 403, /only the owner/);
    expectError(await call(server, 'POST', '/api/v0/session/handoff', {}), 401, /X-Access-Key/);
    expectError(await call(server, 'POST', '/api/v0/session/handoff', { key: server.owner, noTs: true }), 400, /ts is required/);
    expect(readdirSync(folder).sort()).toEqual(before);
  });

  it(`shared codes (the desktop's links) sign in to one session for ${SESSION_BURST_SECONDS / 60} minutes; plain codes each get their own`, async () => {
    const sharedCode = async () => pageLink((await handoff(server, { session: 'shared' })).json.data.path).searchParams.get('code') ?? '';
    const first = (await redeem(server, await sharedCode())).json.data;
    const before = (await sessionKeys(server)).length;
    clock.advance((SESSION_BURST_SECONDS - 60) * 1000);
    const second = (await redeem(server, await sharedCode())).json.data;
    expect(second).toEqual(first);
    expect(await sessionKeys(server)).toHaveLength(before);
    // A plain code (pinfold open, the printed link) is a sign-in of its own.
    const plain = (await redeem(server, (await issueCode(server)).json.data.code)).json.data;
    expect(plain.access_key).not.toBe(first.access_key);

    clock.advance(60_000);
    const later = (await redeem(server, await sharedCode())).json.data;
    expect(later.access_key).not.toBe(first.access_key);
    expect((await call(server, 'GET', '/api/v0/stats', { key: later })).status).toBe(200);
    // Signed out in one tab: the burst's next tab gets a new session.
    expect((await call(server, 'DELETE', '/api/v0/session', { key: later })).status).toBe(200);
    const afterSignOut = (await redeem(server, await sharedCode())).json.data;
    expect(afterSignOut.access_key).not.toBe(later.access_key);
  });

  it(`keeps at most ${MAX_LIVE_SESSIONS} live browser sessions: the oldest is revoked (401) as a new one begins`, async () => {
    const made: SessionKey[] = [];
    for (let i = 0; i < MAX_LIVE_SESSIONS + 3; i += 1) {
      clock.advance(1000);
      made.push((await redeem(server, (await issueCode(server)).json.data.code)).json.data);
    }
    const live = (await sessionKeys(server)).filter((key) => key.session && key.expires_at * 1000 > clock.nowMs());
    expect(live.map((key) => key.access_key)).toEqual(
      made
        .slice(-MAX_LIVE_SESSIONS)
        .reverse()
        .map((key) => key.access_key),
    );
    for (const gone of made.slice(0, 3)) expectError(await call(server, 'GET', '/api/v0/stats', { key: gone }), 401, /invalid access key or secret/);
    expect((await call(server, 'GET', '/api/v0/stats', { key: made.at(-MAX_LIVE_SESSIONS) as SessionKey })).status).toBe(200);
  });

  it('the owner revokes every browser session at once: they stop working, their event streams close, access keys go on', async () => {
    const sessions = [
      (await redeem(server, (await issueCode(server)).json.data.code)).json.data,
      (await redeem(server, (await issueCode(server)).json.data.code)).json.data,
    ];
    const ordinary = await createKey(server, server.owner, 'revoke-all-survivor', ['read']);
    const reader = await openEvents(server, sessions[0] as SessionKey);
    await reader.next('usage');
    const count = (await sessionKeys(server)).length;
    expect(count).toBeGreaterThanOrEqual(2);

    // Only the owner's admin: a partner user's admin 403, a key without admin 403, no key 401, no ts 400; nothing revoked.
    await createUser(server, server.owner, 'revoke-user');
    const userAdmin = await createUserKey(server, server.owner, 'revoke-user', 'admin', ['admin']);
    expectError(await call(server, 'DELETE', '/api/v0/session/all', { key: userAdmin }), 403, /only the owner may revoke browser sessions/);
    expectError(await call(server, 'DELETE', '/api/v0/session/all', { key: ordinary }), 403, /admin/);
    expectError(await call(server, 'DELETE', '/api/v0/session/all', {}), 401, /X-Access-Key/);
    expectError(await call(server, 'DELETE', '/api/v0/session/all', { key: server.owner, noTs: true }), 400, /ts is required/);
    expect(await sessionKeys(server)).toHaveLength(count);

    // A session may revoke them all, itself included.
    const revoked = await call<{ code: number; msg: string; data: SessionsRevoked }>(server, 'DELETE', '/api/v0/session/all', { key: sessions[1] });
    expect(revoked.status).toBe(200);
    expect(revoked.json).toEqual({ code: 200, msg: 'ok', data: { revoked: count } });
    expect(await sessionKeys(server)).toEqual([]);
    for (const session of sessions) expectError(await call(server, 'GET', '/api/v0/stats', { key: session }), 401, /invalid access key or secret/);
    await reader.ended();
    expect((await call(server, 'GET', '/api/v0/stats', { key: ordinary })).status).toBe(403);
    expect((await call(server, 'GET', '/api/v0/stats', { key: server.owner })).status).toBe(200);
    const again = await call<{ data: SessionsRevoked }>(server, 'DELETE', '/api/v0/session/all', { key: server.owner });
    expect(again.json.data).toEqual({ revoked: 0 });
  });
});
