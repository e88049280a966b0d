import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type PinfoldApp } from '../../main/app/create-app.js';
import { testConfig } from '../helpers/test-network.js';
import { GATEWAY_WORKER, uiContentSecurityPolicy } from '../../main/http/routes/renderer-files.js';
import { makeTempDir } from '../helpers/test-server.js';
import { suiteDatabase } from '../helpers/suite-database.js';

/**
 * Issue 12: the window's gateway service worker (renderer/public/gateway-sw.js) is served at the root,
 * where a worker may control /ipfs/ and /ipns/, revalidated on every use, public like the app's other files.
 */
describe('GET /gateway-sw.js', () => {
  const WORKER = "self.addEventListener('fetch', () => {});\n";
  let dataDir: string;
  let rendererDir: string;
  let app: PinfoldApp;
  let url: string;
  beforeAll(async () => {
    [dataDir, rendererDir] = await Promise.all([makeTempDir(), makeTempDir('pinfold-renderer-')]);
    await writeFile(join(rendererDir, 'index.html'), '<!doctype html>');
    await writeFile(join(rendererDir, GATEWAY_WORKER), WORKER);
    app = await createApp({ config: testConfig({ port: 0, dataDir, ...(await suiteDatabase(dataDir)) }), env: {}, rendererDir });
    url = await app.listen();
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all([rm(dataDir, { recursive: true, force: true }), rm(rendererDir, { recursive: true, force: true })]);
  });

  it('answers the worker as JavaScript, revalidated each time, with the UI headers and no credentials', async () => {
    const response = await fetch(`${url}/gateway-sw.js`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(WORKER);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('content-security-policy')).toBe(uiContentSecurityPolicy('http', new URL(url).host));
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves nothing else at the root: other names stay 404 with the envelope', async () => {
    for (const path of ['/gateway-sw.js/', '/gateway-sw.jsx', '/index.html.js', '/sw.js']) {
      const response = await fetch(`${url}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toMatchObject({ code: 404 });
    }
  });
});
