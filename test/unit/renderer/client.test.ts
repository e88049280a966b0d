import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '../../../renderer/api/client.js';
import type { AccountUsage, Plan } from '../../../shared/api-types.js';

const USAGE: AccountUsage = {
  name: 'owner',
  provider: 'local',
  email: '',
  email_verified: false,
  eth_addr: '',
  token_amount: '1000.00',
  plan: 'Local',
  next_plan: 'Local',
  next_bill_at: 1767225600,
  pinned_count: 3,
  pinned_count_limit: Number.MAX_SAFE_INTEGER,
  pinned_bytes: 2048,
  pinned_bytes_limit: Number.MAX_SAFE_INTEGER,
  ingress: 4096,
  ingress_limit: Number.MAX_SAFE_INTEGER,
  egress: 0,
  egress_limit: Number.MAX_SAFE_INTEGER,
  ipns: 1,
  ipns_limit: Number.MAX_SAFE_INTEGER,
};

const PLAN: Plan = {
  id: 1,
  name: 'Free',
  price: '0.00',
  pinned_count_limit: 100,
  pinned_bytes_limit: 1024 ** 3,
  ingress_limit: 5 * 1024 ** 3,
  egress_limit: 5 * 1024 ** 3,
  ipns_limit: 3,
};

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
}

/** A real HTTP server whose next answer each test sets; it records what the client sent. */
let server: Server;
let baseUrl: string;
let seen: Seen[] = [];
let answer: { status: number; body: string; contentType?: string } = { status: 200, body: '{}' };

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({ url: request.url ?? '', headers: request.headers });
    response.writeHead(answer.status, { 'Content-Type': answer.contentType ?? 'application/json' });
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
});

beforeEach(() => {
  seen = [];
});

const credentials = { accessKey: '3f0c1c9e-6a7e-4c43-9d3e-2b5c0f6e9a11', accessSecret: 'c2VjcmV0LXNlY3JldC1zZWNyZXQ' };

describe('createApiClient().stats', () => {
  it('sends ts in whole seconds and both key headers, and returns data', async () => {
    answer = { status: 200, body: JSON.stringify({ code: 200, msg: 'ok', data: USAGE }) };
    const client = createApiClient({ baseUrl: `${baseUrl}/`, now: () => 1_700_000_000_999 });
    await expect(client.stats(credentials)).resolves.toEqual(USAGE);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toBe('/api/v0/stats?ts=1700000000');
    expect(seen[0]?.headers['x-access-key']).toBe(credentials.accessKey);
    expect(seen[0]?.headers['x-access-secret']).toBe(credentials.accessSecret);
  });

  it('turns an error envelope into an ApiError with its code and msg', async () => {
    answer = { status: 401, body: JSON.stringify({ code: 401, msg: 'invalid access secret' }) };
    const error = await createApiClient({ baseUrl }).stats(credentials).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'http', code: 401, msg: 'invalid access secret', isUnauthorized: true });
  });

  it('keeps a 403 apart from a 401', async () => {
    answer = { status: 403, body: JSON.stringify({ code: 403, msg: 'permission denied: admin' }) };
    const error = await createApiClient({ baseUrl }).stats(credentials).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'http', code: 403, isUnauthorized: false });
  });

  it('reports a body that is not JSON as a protocol error with the status', async () => {
    answer = { status: 502, body: '<html>bad gateway</html>', contentType: 'text/html' };
    const error = await createApiClient({ baseUrl }).stats(credentials).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'protocol', code: 502 });
  });

  it('rejects a success envelope whose data is not account usage', async () => {
    answer = { status: 200, body: JSON.stringify({ code: 200, msg: 'ok', data: { plan: 'Free' } }) };
    const error = await createApiClient({ baseUrl }).stats(credentials).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'protocol' });
  });

  it('reports an unreachable service as a network error with code 0', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await createApiClient({ baseUrl: `http://127.0.0.1:${port}` }).stats(credentials).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'network', code: 0 });
  });

  it('passes an abort through unchanged', async () => {
    answer = { status: 200, body: JSON.stringify({ code: 200, msg: 'ok', data: USAGE }) };
    const controller = new AbortController();
    controller.abort();
    const error = await createApiClient({ baseUrl }).stats(credentials, controller.signal).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).name).toBe('AbortError');
  });
});

describe('createApiClient().plans', () => {
  it('asks without ts or key headers', async () => {
    answer = { status: 200, body: JSON.stringify({ code: 200, msg: 'ok', data: [PLAN] }) };
    await expect(createApiClient({ baseUrl }).plans()).resolves.toEqual([PLAN]);
    expect(seen[0]?.url).toBe('/api/v0/plans');
    expect(seen[0]?.headers['x-access-key']).toBeUndefined();
    expect(seen[0]?.headers['x-access-secret']).toBeUndefined();
  });

  it('rejects a list with a malformed plan', async () => {
    answer = { status: 200, body: JSON.stringify({ code: 200, msg: 'ok', data: [{ ...PLAN, price: 0 }] }) };
    await expect(createApiClient({ baseUrl }).plans()).rejects.toMatchObject({ kind: 'protocol' });
  });
});
