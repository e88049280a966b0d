import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, rawRequest, type RawResponse } from '../helpers/account-api.js';
import { nowTs, startTestServer, type TestServer } from '../helpers/test-server.js';
import { addressFor, uploadCid } from './uploads-helpers.js';

/**
 * Contract section 5: every /ipfs and /ipns response carries `Content-Security-Policy: sandbox` and
 * `X-Content-Type-Options: nosniff` (and `Referrer-Policy: same-origin`), including the answers that come from before the gateway (Host guard,
 * authentication, `ts`, permissions, URLs the router refuses) and the upload steps on /ipfs. The rest of
 * the API, and the UI itself (which has a CSP of its own), are served without the sandbox: it would stop
 * the UI's own scripts.
 */
describe('content isolation headers over a real server', () => {
  let server: TestServer;
  let cid: string;
  let owner: Record<string, string>;
  let writeOnly: Record<string, string>;

  beforeAll(async () => {
    server = await startTestServer();
    cid = await uploadCid(server, server.owner, new TextEncoder().encode('<!DOCTYPE html><p>hi</p><script>document.title = "ran"</script>'));
    owner = { 'X-Access-Key': server.owner.access_key, 'X-Access-Secret': server.owner.access_secret };
    const writer = await createKey(server, server.owner, 'isolation-writer', ['write']);
    writeOnly = { 'X-Access-Key': writer.access_key, 'X-Access-Secret': writer.access_secret };
  });
  afterAll(async () => {
    await server.stop();
  });

  function expectIsolated(response: RawResponse, status: number, what: string): void {
    expect(response.status, what).toBe(status);
    expect(response.headers['content-security-policy'], what).toBe('sandbox');
    expect(response.headers['x-content-type-options'], what).toBe('nosniff');
    // Issue 22, item 3: a link in content tells another site nothing of the address.
    expect(response.headers['referrer-policy'], what).toBe('same-origin');
  }

  it('content, HEAD and the refusals that come before the gateway', async () => {
    const cases: [string, string, string, Record<string, string>, number][] = [
      ['content', 'GET', `/ipfs/${cid}?ts=${nowTs()}`, owner, 200],
      ['HEAD', 'HEAD', `/ipfs/${cid}?ts=${nowTs()}`, owner, 200],
      ['no credentials', 'GET', `/ipfs/${cid}?ts=${nowTs()}`, {}, 401],
      ['stale ts', 'GET', `/ipfs/${cid}?ts=${nowTs() - 3600}`, owner, 401],
      ['no ts', 'GET', `/ipns/example.org`, owner, 400],
      ['read permission missing', 'GET', `/ipfs/${cid}?ts=${nowTs()}`, writeOnly, 403],
      ['Host guard', 'GET', `/ipfs/${cid}?ts=${nowTs()}`, { ...owner, Host: 'evil.example' }, 403],
      ['URL the router refuses', 'GET', `/ipfs/%zz?ts=${nowTs()}`, owner, 400],
      ['a spelling the router still takes for /ipfs/*', 'GET', `/%69pfs/${cid}?ts=${nowTs()}`, owner, 400],
      ['no route', 'GET', `/ipfs?ts=${nowTs()}`, owner, 404],
      ['unknown name', 'GET', `/ipns/unknown-name.invalid?ts=${nowTs()}`, owner, 404],
    ];
    for (const [what, method, path, headers, status] of cases) {
      expectIsolated(await rawRequest(server.url, method, path, headers), status, what);
    }
  });

  it('the upload steps on /ipfs carry them too', async () => {
    const first = await rawRequest(server.url, 'POST', `/ipfs/?size=2&ts=${nowTs()}`, owner);
    expectIsolated(first, 200, 'step 1');
    const url = new URL(await addressFor(server, server.owner, 'POST', '/ipfs/', { size: 2 }));
    expectIsolated(await rawRequest(server.url, 'POST', `${url.pathname}${url.search}`, {}, 'hi'), 201, 'step 2');
  });

  it('the API and the UI are served without the sandbox', async () => {
    for (const path of ['/api/v0/plans', `/api/v0/stats?ts=${nowTs()}`, '/', '/index.html']) {
      const response = await rawRequest(server.url, 'GET', path, owner);
      expect(String(response.headers['content-security-policy'] ?? ''), path).not.toMatch(/sandbox/);
    }
  });
});
