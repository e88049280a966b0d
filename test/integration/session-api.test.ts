import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessKeyView, AccountUsage, CreatedAccessKey, SessionKey, SignInCode } from '../../shared/api-types.js';
import { call, startTestServer, testClock, type TestServer } from '../helpers/test-server.js';
import { createKey, createUser, createUserKey, expectError } from '../helpers/account-api.js';

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

describe('sign-in codes and session keys', () => {
  let server: TestServer;
  const clock = testClock();
  beforeAll(async () => {
    // The test moves the server's clock by days; requests carry the real time as ts.
    server = await startTestServer({ tsWindowSeconds: 30 * 24 * 3600 }, {}, clock);
  });
  afterAll(async () => {
    await server.stop();
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
    expect(again.json).toEqual({ code: 401, msg: 'sign-in code is unknown, already used or expired' });
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
      expect(response.json).toEqual({ code: 400, msg: expect.stringMatching(msg) });
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
});
