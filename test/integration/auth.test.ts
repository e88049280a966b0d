import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedAccessKey, Permission } from '../../shared/api-types.js';
import { sign } from '../../main/http/signature.js';
import { call, nowTs, startTestServer, type CallResult, type TestServer } from '../helpers/test-server.js';
import { createKey, createUser, expectError } from '../helpers/account-api.js';

/** A GET with hand-made headers, for the cases the call() helper deliberately does right. */
async function get(server: { url: string }, pathAndQuery: string, headers: Record<string, string>): Promise<CallResult> {
  const response = await fetch(`${server.url}${pathAndQuery}`, { headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : null, text };
}

function signature(key: CreatedAccessKey, canonical: string): string {
  return sign(Buffer.from(key.access_secret, 'base64url'), canonical);
}

describe('authentication and ts', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ tsWindowSeconds: 5 });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('secret header mode', async () => {
    expect((await call(server, 'GET', '/api/v0/stats', { key: server.owner })).status).toBe(200);
  });

  it('signature mode over a query sent unsorted, and the sorted form too', async () => {
    const ts = nowTs();
    const path = `/api/v0/stats?zeta=1&ts=${ts}&alpha=two%20words`;
    const asSent = `GET\n/api/v0/stats\nzeta=1&ts=${ts}&alpha=two+words`;
    const sorted = `GET\n/api/v0/stats\nalpha=two+words&ts=${ts}&zeta=1`;
    const key = server.owner.access_key;
    for (const canonical of [asSent, sorted]) {
      const sig = signature(server.owner, canonical);
      expect((await get(server, path, { 'X-Access-Key': key, 'X-Access-Signature': sig })).status).toBe(200);
      expect((await get(server, path, { 'X-Access-Key': key, 'X-Access-Signature': `${sig}=` })).status).toBe(200);
    }
    // Another order is neither the order sent nor sorted.
    const shuffled = signature(server.owner, `GET\n/api/v0/stats\nts=${ts}&zeta=1&alpha=two+words`);
    expectError(await get(server, path, { 'X-Access-Key': key, 'X-Access-Signature': shuffled }), 401, /access key or secret/);
  });

  it('a signature for another path, method, query or key is 401', async () => {
    const ts = nowTs();
    const key = server.owner.access_key;
    const path = `/api/v0/stats?ts=${ts}`;
    const wrong = [
      signature(server.owner, `GET\n/api/v0/keys\nts=${ts}`),
      signature(server.owner, `POST\n/api/v0/stats\nts=${ts}`),
      signature(server.owner, `GET\n/api/v0/stats\nts=${ts - 1}`),
      sign(Buffer.alloc(48, 1), `GET\n/api/v0/stats\nts=${ts}`),
      'not-a-signature',
      '',
    ];
    for (const sig of wrong) expectError(await get(server, path, { 'X-Access-Key': key, 'X-Access-Signature': sig }), 401, /access key or secret/);
  });

  it('missing ts 400, non-integer ts 400, both naming ts', async () => {
    expectError(await call(server, 'GET', '/api/v0/stats', { key: server.owner, noTs: true }), 400, /^ts is required/, 'bad_input');
    for (const ts of ['abc', '1.5', '', '1e9'])
      expectError(await call(server, 'GET', '/api/v0/stats', { key: server.owner, noTs: true, query: { ts } }), 400, /^ts /);
    // Missing ts also comes before the credentials: no headers and no ts is still 400.
    expectError(await call(server, 'GET', '/api/v0/stats', { noTs: true }), 400, /^ts /);
  });

  it('a ts beyond --ts-window is 401, in either direction and in both modes', async () => {
    for (const ts of [nowTs() - 100, nowTs() + 100]) {
      expectError(await call(server, 'GET', '/api/v0/stats', { key: server.owner, noTs: true, query: { ts } }), 401, /^ts /);
      expectError(await call(server, 'GET', '/api/v0/stats', { key: server.owner, signed: true, noTs: true, query: { ts } }), 401, /^ts /);
    }
  });

  it('missing headers 401 naming the header', async () => {
    expectError(await call(server, 'GET', '/api/v0/stats'), 401, /X-Access-Key/, 'unauthenticated');
    expectError(await get(server, `/api/v0/stats?ts=${nowTs()}`, { 'X-Access-Secret': server.owner.access_secret }), 401, /X-Access-Key/);
    expectError(await get(server, `/api/v0/stats?ts=${nowTs()}`, { 'X-Access-Key': server.owner.access_key }), 401, /X-Access-Secret or X-Access-Signature/);
  });

  it('unknown key, wrong secret, a secret of another key: 401 with the same message', async () => {
    const other = await createKey(server, server.owner, 'other', ['admin']);
    const cases: Record<string, string>[] = [
      { 'X-Access-Key': '00000000-0000-4000-8000-000000000000', 'X-Access-Secret': server.owner.access_secret },
      { 'X-Access-Key': 'not-even-a-uuid', 'X-Access-Secret': server.owner.access_secret },
      { 'X-Access-Key': server.owner.access_key, 'X-Access-Secret': 'wrong' },
      // The last character changed to another one (a fixed 'A' would be the real secret one time in 64).
      {
        'X-Access-Key': server.owner.access_key,
        'X-Access-Secret': `${server.owner.access_secret.slice(0, -1)}${server.owner.access_secret.endsWith('A') ? 'B' : 'A'}`,
      },
      { 'X-Access-Key': server.owner.access_key, 'X-Access-Secret': other.access_secret },
    ];
    const messages = new Set<string>();
    for (const headers of cases) {
      const response = await get(server, `/api/v0/stats?ts=${nowTs()}`, headers);
      expectError(response, 401, /access key or secret/);
      messages.add((response.json as { msg: string }).msg);
    }
    expect(messages.size).toBe(1);
  });

  it('the plan list needs neither headers nor ts', async () => {
    const response = await call(server, 'GET', '/api/v0/plans', { noTs: true });
    expect(response.status).toBe(200);
  });
});

describe('permissions', () => {
  let server: TestServer;
  const keys = new Map<Permission, CreatedAccessKey>();
  beforeAll(async () => {
    server = await startTestServer();
    for (const permission of ['admin', 'read', 'write', 'pin', 'unpin'] as const)
      keys.set(permission, await createKey(server, server.owner, `only-${permission}`, [permission]));
    await createUser(server, server.owner, 'perm-user');
  });
  afterAll(async () => {
    await server.stop();
  });

  const endpoints: [string, string, { query?: Record<string, string>; body?: unknown }][] = [
    ['GET', '/api/v0/stats', {}],
    ['GET', '/api/v0/keys', {}],
    ['POST', '/api/v0/key', { body: { name: 'made-by-PERM', permissions: ['admin'] } }],
    ['DELETE', '/api/v0/key', { body: { name: 'only-admin' } }],
    ['POST', '/api/v0/partner/user/create', { body: { uuid: 'perm-new-PERM', name: 'N', email: 'n@example.com' } }],
    ['GET', '/api/v0/partner/user/stats', { query: { uuid: 'perm-user' } }],
    ['POST', '/api/v0/partner/user/update-plan', { body: { uuid: 'perm-user', plan_id: 4 } }],
    ['POST', '/api/v0/partner/user/key', { body: { uuid: 'perm-user', name: 'PERM', permissions: ['admin'] } }],
    ['GET', '/api/v0/partner/user/keys', { query: { uuid: 'perm-user' } }],
    ['DELETE', '/api/v0/partner/user/key', { body: { uuid: 'perm-user', name: 'nothing' } }],
  ];

  for (const permission of ['read', 'write', 'pin', 'unpin'] as const) {
    it(`a key with only ${permission} gets 403 "permission missing: admin" on every account and partner endpoint, changing nothing`, async () => {
      const key = keys.get(permission) as CreatedAccessKey;
      const before = await call(server, 'GET', '/api/v0/keys', { key: server.owner });
      for (const [method, path, options] of endpoints) {
        const body = options.body === undefined ? undefined : JSON.parse(JSON.stringify(options.body).replaceAll('PERM', permission));
        for (const signed of [false, true]) {
          const response = await call(server, method, path, { key, signed, query: options.query, body });
          expectError(response, 403, /^permission missing: admin$/, 'permission');
        }
      }
      expect((await call(server, 'GET', '/api/v0/keys', { key: server.owner })).json).toEqual(before.json);
      expect((await call(server, 'GET', '/api/v0/partner/user/stats', { key: server.owner, query: { uuid: 'perm-user' } })).json).toMatchObject({
        data: { plan: 'Free' },
      });
    });
  }

  it('a key with all four non-admin permissions is still refused the account API', async () => {
    const all = await createKey(server, server.owner, 'all-but-admin', ['read', 'write', 'pin', 'unpin']);
    expectError(await call(server, 'GET', '/api/v0/stats', { key: all }), 403, /^permission missing: admin$/, 'permission');
  });

  it('an admin key reaches every account and partner endpoint', async () => {
    const admin = keys.get('admin') as CreatedAccessKey;
    const statuses: number[] = [];
    for (const [method, path, options] of endpoints) {
      if (path === '/api/v0/key' && method === 'DELETE') continue;
      if (path === '/api/v0/partner/user/key' && method === 'DELETE') continue;
      const body = options.body === undefined ? undefined : JSON.parse(JSON.stringify(options.body).replaceAll('PERM', 'admin'));
      statuses.push((await call(server, method, path, { key: admin, query: options.query, body })).status);
    }
    expect(statuses).toEqual(statuses.map(() => 200));
    expect((await call(server, 'DELETE', '/api/v0/partner/user/key', { key: admin, body: { uuid: 'perm-user', name: 'admin' } })).status).toBe(200);
    // Deleting itself last.
    expect((await call(server, 'DELETE', '/api/v0/key', { key: admin, body: { name: 'only-admin' } })).status).toBe(200);
    expect((await call(server, 'GET', '/api/v0/stats', { key: admin })).status).toBe(401);
  });
});
