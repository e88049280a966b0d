import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/account-api.js';
import { expectFailureEnvelope } from '../helpers/error-envelope.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * A request no route takes is 404 in the envelope, whatever it carries: no `ts`, no credentials. It is not
 * a call, so there is nothing to authorize. The Host guard still refuses a foreign Host first (403), and a
 * path under /ipfs or /ipns still gets the content isolation headers.
 */
describe('unknown routes', () => {
  let server: TestServer;
  let host: string;
  beforeAll(async () => {
    server = await startTestServer();
    host = new URL(server.url).host;
  });
  afterAll(async () => {
    await server.stop();
  });

  it.each([
    ['GET', '//ipfs/x'],
    ['GET', '/api/v0/nope'],
    ['POST', '/api/v0/nope?arg=x'],
    ['GET', '/nothing/here'],
    ['PATCH', '/ipfs/bafkqaaa'],
    ['POST', '/ipns/some-name'],
  ])('%s %s without ts or credentials is 404 in the envelope', async (method, path) => {
    const answer = await rawRequest(server.url, method, path, { host });
    expect(answer.status, answer.body).toBe(404);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toEqual({ code: 404, msg: `no route for ${method} ${path.split('?')[0] as string}`, error: 'not_found' });
  });

  it('on /ipfs and /ipns paths the 404 carries the content isolation headers; elsewhere it needs none', async () => {
    for (const [method, path] of [
      ['PATCH', '/ipfs/bafkqaaa'],
      ['POST', '/ipns/some-name'],
    ] as const) {
      const answer = await rawRequest(server.url, method, path, { host });
      expect(answer.status).toBe(404);
      expect(answer.headers['content-security-policy']).toBe('sandbox');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
    expect((await rawRequest(server.url, 'GET', '/api/v0/nope', { host })).headers['content-security-policy']).toBeUndefined();
  });

  it('the Host guard still comes first: a foreign Host is 403', async () => {
    for (const path of ['/api/v0/nope', '//ipfs/x', '/ipns/x?y=1']) {
      const answer = await rawRequest(server.url, 'POST', path, { host: 'evil.example' });
      expect(answer.status, path).toBe(403);
      expect(JSON.parse(answer.body)).toEqual({ code: 403, msg: expect.any(String), error: 'host_not_allowed' });
    }
  });

  it('an upload address sent to no upload route is still refused as an address (401)', async () => {
    const answer = await rawRequest(server.url, 'GET', '/api/v0/nope?sargs=x&ssig=y', { host });
    expect(answer.status).toBe(401);
    expectFailureEnvelope(JSON.parse(answer.body), 401, 'unauthenticated');
  });
});
