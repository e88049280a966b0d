import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowTs, startTestServer, type TestServer } from '../helpers/test-server.js';
import { rawRequest, type RawResponse } from '../helpers/account-api.js';
import { expectFailureEnvelope } from '../helpers/error-envelope.js';

function corsHeaders(response: RawResponse): string[] {
  return Object.keys(response.headers).filter((name) => name.toLowerCase().startsWith('access-control-allow-'));
}

describe('Host guard', () => {
  let server: TestServer;
  let port: string;
  let auth: Record<string, string>;
  beforeAll(async () => {
    server = await startTestServer();
    port = new URL(server.url).port;
    auth = { 'X-Access-Key': server.owner.access_key, 'X-Access-Secret': server.owner.access_secret };
  });
  afterAll(async () => {
    await server.stop();
  });

  it('refuses Host: evil.example with 403 in the envelope, on public, authenticated and unknown routes', async () => {
    for (const host of ['evil.example', `evil.example:${port}`, 'localhost.evil.example', '127.0.0.2']) {
      for (const [path, headers] of [
        ['/api/v0/plans', {}],
        [`/api/v0/stats?ts=${nowTs()}`, auth],
        ['/no/such/route', {}],
      ] as [string, Record<string, string>][]) {
        const response = await rawRequest(server.url, 'GET', path, { ...headers, Host: host });
        expect(response.status).toBe(403);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(expectFailureEnvelope(JSON.parse(response.body), 403, 'host_not_allowed').msg).toMatch(/Host/);
        expect(response.body).not.toContain('token_amount');
      }
    }
  });

  it('accepts localhost, 127.0.0.1 and [::1] with any port, or none', async () => {
    for (const host of ['localhost', `localhost:${port}`, '127.0.0.1', '127.0.0.1:1', `127.0.0.1:${port}`, '[::1]', '[::1]:8080', 'LOCALHOST:9']) {
      expect((await rawRequest(server.url, 'GET', '/api/v0/plans', { Host: host })).status).toBe(200);
      expect((await rawRequest(server.url, 'GET', `/api/v0/stats?ts=${nowTs()}`, { ...auth, Host: host })).status).toBe(200);
    }
  });

  it('refuses a Host that is more than a host and a port (userinfo, a path), before step 1 can use it', async () => {
    for (const host of [
      'localhost:@evil.example',
      `localhost:${port}@evil.example`,
      '127.0.0.1:1/evil',
      `127.0.0.1:${port}/evil`,
      'localhost:',
      'localhost:x',
    ]) {
      for (const [method, path] of [
        ['GET', '/api/v0/plans'],
        ['POST', `/ipfs/?size=1&ts=${nowTs()}`],
      ] as const) {
        const response = await rawRequest(server.url, method, path, { ...auth, Host: host });
        expect(response.status, `${host} ${path}`).toBe(403);
        expect(JSON.parse(response.body)).toEqual({ code: 403, msg: expect.stringMatching(/Host/), error: 'host_not_allowed' });
        expect(response.body).not.toContain('sargs');
      }
    }
  });

  it('step 1 builds the upload address from the address it listens on, whatever Host says', async () => {
    for (const host of ['localhost:1234', '[::1]', '127.0.0.1:9']) {
      const response = await rawRequest(server.url, 'POST', `/ipfs/?size=1&ts=${nowTs()}`, { ...auth, Host: host });
      expect(response.status).toBe(200);
      const url = (JSON.parse(response.body) as { data: { url: string } }).data.url;
      expect(url.startsWith(`${server.url}/ipfs/?sargs=`), url).toBe(true);
    }
  });

  it('with --host 0.0.0.0, the upload address is on loopback, where the server can be reached', async () => {
    const wildcard = await startTestServer({ host: '0.0.0.0' });
    try {
      const listened = new URL(wildcard.url).port;
      const headers = { 'X-Access-Key': wildcard.owner.access_key, 'X-Access-Secret': wildcard.owner.access_secret, Host: `localhost:${listened}` };
      const response = await rawRequest(`http://127.0.0.1:${listened}`, 'POST', `/ipfs/?size=1&ts=${nowTs()}`, headers);
      expect(response.status).toBe(200);
      const url = new URL((JSON.parse(response.body) as { data: { url: string } }).data.url);
      expect(url.host).toBe(`127.0.0.1:${listened}`);
      expect((await fetch(url, { method: 'POST', body: 'x' })).status).toBe(201);
    } finally {
      await wildcard.stop();
    }
  });
});

describe('CORS', () => {
  let closed: TestServer;
  let open: TestServer;
  beforeAll(async () => {
    closed = await startTestServer();
    open = await startTestServer({ allowOrigins: ['http://app.example'] });
  });
  afterAll(async () => {
    await closed.stop();
    await open.stop();
  });

  it('by default no origin gets an Access-Control-Allow-* header, and preflights are refused', async () => {
    const auth = { 'X-Access-Key': closed.owner.access_key, 'X-Access-Secret': closed.owner.access_secret };
    for (const origin of ['http://app.example', 'http://localhost:3000', 'null']) {
      const get = await rawRequest(closed.url, 'GET', `/api/v0/stats?ts=${nowTs()}`, { ...auth, Origin: origin });
      expect(get.status).toBe(200);
      expect(corsHeaders(get)).toEqual([]);
      const preflight = await rawRequest(closed.url, 'OPTIONS', '/api/v0/stats', {
        Origin: origin,
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'x-access-key, x-access-secret',
      });
      expect(preflight.status).not.toBe(204);
      expect(preflight.status).toBeGreaterThanOrEqual(400);
      expect(corsHeaders(preflight)).toEqual([]);
    }
  });

  it('an --allow-origin origin gets the headers on answers and errors, and a 204 preflight', async () => {
    const auth = { 'X-Access-Key': open.owner.access_key, 'X-Access-Secret': open.owner.access_secret };
    const get = await rawRequest(open.url, 'GET', `/api/v0/stats?ts=${nowTs()}`, { ...auth, Origin: 'http://app.example' });
    expect(get.status).toBe(200);
    expect(get.headers['access-control-allow-origin']).toBe('http://app.example');
    expect(String(get.headers.vary)).toMatch(/Origin/i);

    const denied = await rawRequest(open.url, 'GET', `/api/v0/stats?ts=${nowTs()}`, { Origin: 'http://app.example' });
    expect(denied.status).toBe(401);
    expect(denied.headers['access-control-allow-origin']).toBe('http://app.example');

    const preflight = await rawRequest(open.url, 'OPTIONS', '/api/v0/key', {
      Origin: 'http://app.example',
      'Access-Control-Request-Method': 'DELETE',
      'Access-Control-Request-Headers': 'x-access-key, x-access-signature, content-type',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://app.example');
    expect(String(preflight.headers['access-control-allow-methods'])).toMatch(/DELETE/);
    const allowedHeaders = String(preflight.headers['access-control-allow-headers']).toLowerCase();
    for (const name of ['x-access-key', 'x-access-secret', 'x-access-signature', 'content-type']) expect(allowedHeaders).toContain(name);

    // The Pinning Service API's bearer token (contract section 11), for a PSA client on an allowed origin.
    const psaPreflight = await rawRequest(open.url, 'OPTIONS', '/psa/pins', {
      Origin: 'http://app.example',
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'authorization, content-type',
    });
    expect(psaPreflight.status).toBe(204);
    expect(String(psaPreflight.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
    const psa = await rawRequest(open.url, 'GET', '/psa/pins', {
      Origin: 'http://app.example',
      Authorization: `Bearer ${open.owner.access_key}.${open.owner.access_secret}`,
    });
    expect(psa.status).toBe(200);
    expect(psa.headers['access-control-allow-origin']).toBe('http://app.example');
  });

  it('other origins still get nothing from a server with --allow-origin', async () => {
    const auth = { 'X-Access-Key': open.owner.access_key, 'X-Access-Secret': open.owner.access_secret };
    for (const origin of ['http://evil.example', 'http://app.example.evil', 'https://app.example', 'http://APP.example']) {
      const get = await rawRequest(open.url, 'GET', `/api/v0/stats?ts=${nowTs()}`, { ...auth, Origin: origin });
      expect(corsHeaders(get)).toEqual([]);
      const preflight = await rawRequest(open.url, 'OPTIONS', '/api/v0/stats', { Origin: origin, 'Access-Control-Request-Method': 'GET' });
      expect(preflight.status).not.toBe(204);
      expect(JSON.parse(preflight.body)).toEqual({ code: 403, msg: 'origin not allowed', error: 'origin_not_allowed' });
      expect(corsHeaders(preflight)).toEqual([]);
    }
  });

  it('the Host guard applies to preflights too', async () => {
    const preflight = await rawRequest(open.url, 'OPTIONS', '/api/v0/stats', {
      Host: 'evil.example',
      Origin: 'http://app.example',
      'Access-Control-Request-Method': 'GET',
    });
    expect(preflight.status).toBe(403);
    expect(corsHeaders(preflight)).toEqual([]);
  });
});
