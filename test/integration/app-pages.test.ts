import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type PinfoldApp } from '../../main/app/create-app.js';
import { testConfig } from '../helpers/test-network.js';
import { call, makeTempDir } from '../helpers/test-server.js';
import { suiteDatabase } from '../helpers/suite-database.js';
import { expectError, rawRequest } from '../helpers/account-api.js';

/** Issue 12, api12.md section 1: the window's pages at real URLs answer the app; API and gateway paths do not change. */

const INDEX = '<!doctype html><title>Pinfold test page</title>';
/**
 * The UI's policy at `origin` (issue 22, item 4): scripts from the built assets only, never from the gateway
 * on the same origin; workers from the gateway worker's address, the assets and blob:.
 */
const uiCsp = (origin: string): string =>
  `default-src 'self'; script-src ${origin}/assets/; worker-src ${origin}/gateway-sw.js ${origin}/assets/ blob:; connect-src 'self'; ` +
  "img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
const PAGES = [
  '/',
  '/signin',
  '/overview',
  '/files',
  '/pins',
  '/names',
  '/keys',
  '/sync',
  '/sync/3f2a9c1e-1b2c-4d5e-8f90-123456789abc',
  '/partners',
  '/settings',
];

describe('the app at real URLs', () => {
  let dataDir: string;
  let rendererDir: string;
  let app: PinfoldApp;
  let url: string;
  beforeAll(async () => {
    dataDir = await makeTempDir();
    rendererDir = await makeTempDir('pinfold-renderer-');
    await writeFile(join(rendererDir, 'index.html'), INDEX);
    await mkdir(join(rendererDir, 'assets'));
    await writeFile(join(rendererDir, 'assets', 'index-abc123.js'), 'export {};\n');
    app = await createApp({ config: testConfig({ port: 0, dataDir, ...(await suiteDatabase(dataDir)) }), env: {}, rendererDir });
    url = await app.listen();
  });
  afterAll(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(rendererDir, { recursive: true, force: true });
  });

  it('every page, with or without a trailing slash and with a query, answers index.html with the UI headers, no credentials needed', async () => {
    for (const page of PAGES) {
      for (const path of page === '/' ? ['/', '/?code=x'] : [page, `${page}/`, `${page}?code=abc`]) {
        const response = await fetch(`${url}${path}`);
        expect(response.status, path).toBe(200);
        expect(await response.text()).toBe(INDEX);
        expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(response.headers.get('cache-control')).toBe('no-cache');
        expect(response.headers.get('content-security-policy')).toBe(uiCsp(url));
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        expect(response.headers.get('referrer-policy')).toBe('same-origin');
      }
    }
    const head = await fetch(`${url}/pins`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-security-policy')).toBe(uiCsp(url));
  });

  it("the policy names the origin the page was asked at: the Host's name and port; an IPv6 literal, which CSP cannot name, falls back to 'self'", async () => {
    const { port } = new URL(url);
    for (const host of [`localhost:${port}`, 'LOCALHOST', `127.0.0.1:${port}`]) {
      const response = await rawRequest(url, 'GET', '/files', { Host: host });
      expect(response.status, host).toBe(200);
      expect(response.headers['content-security-policy'], host).toBe(uiCsp(`http://${host}`));
    }
    const ipv6 = await rawRequest(url, 'GET', '/files', { Host: `[::1]:${port}` });
    expect(ipv6.status).toBe(200);
    expect(ipv6.headers['content-security-policy']).toContain("script-src 'self'; worker-src 'self' 'self' blob:;");
  });

  it('assets keep their long cache and the UI policy', async () => {
    const response = await fetch(`${url}/assets/index-abc123.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-security-policy')).toBe(uiCsp(url));
  });

  it('a page is refused for a foreign Host like any route (DNS rebinding)', async () => {
    const response = await rawRequest(url, 'GET', '/pins', { Host: 'evil.example' });
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toMatchObject({ code: 403 });
  });

  it('API and gateway paths are unaffected, and paths that only look like pages are unknown', async () => {
    const pins = await call<{ code: number; total: number }>({ url }, 'GET', '/api/v0/pin', { key: app.ownerKey });
    expect(pins.status).toBe(200);
    expect(pins.json).toMatchObject({ code: 200, total: 0 });
    const noTs = await call({ url }, 'GET', '/api/v0/pin', { key: app.ownerKey, noTs: true });
    expectError(noTs, 400, /ts is required/);
    const gateway = await call({ url }, 'GET', '/ipfs/bafkqaaa', { key: app.ownerKey });
    expect(gateway.status).toBe(200);
    expect(gateway.headers.get('content-security-policy')).toBe('sandbox');
    for (const path of ['/pinsx', '/sync/a/b', '/overview/more', '/settings.html']) {
      const response = await call({ url }, 'GET', path, { key: app.ownerKey });
      expectError(response, 404, /no route/);
    }
  });

  it('POST to a page path is no page: 404 in the envelope', async () => {
    const response = await call({ url }, 'POST', '/pins', { key: app.ownerKey });
    expectError(response, 404, /no route/);
  });
});
