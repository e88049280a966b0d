import { rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type PinfoldApp } from '../../main/app/create-app.js';
import { testConfig } from '../helpers/test-network.js';
import { createLogger } from '../../main/base/logger.js';
import { parseTar } from '../helpers/tar-check.js';
import { deepEscapeDag, FILE_TEXT, INSIDE_ROOT, insideRootDag, OUTSIDE_ROOT, outsideRootDag } from '../helpers/relative-path-dags.js';
import { makeTempDir, nowTs } from '../helpers/test-server.js';
import { suiteDatabase } from '../helpers/suite-database.js';
import { carImport, carV1, stats } from './uploads-helpers.js';
import { ownerKeyOf } from '../helpers/owner-key.js';

interface Outcome {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** False when the connection closed before the body ended. */
  complete: boolean;
}

/**
 * `?format=tar` over a real server with a logger that records (the server's own Logger): the gateway-conformance
 * TAR fixtures whose names hold "..", and a failure after the headers went out.
 */
describe('gateway TAR over a real server: relative names, and failures after the headers', () => {
  let dataDir: string;
  let app: PinfoldApp;
  let url: string;
  const logged: string[] = [];
  /** What the gateway logged (other parts of the server may log beside it). */
  const gatewayLines = (): string[] => logged.filter((line) => line.includes(' gateway '));
  let escape: string;

  beforeAll(async () => {
    dataDir = await makeTempDir();
    app = await createApp({
      config: testConfig({ dataDir, port: 0, ...(await suiteDatabase(dataDir)) }),
      env: {},
      logger: createLogger('info', (line) => logged.push(line)),
    });
    url = await app.listen();
    const server = { url };
    for (const dag of [await insideRootDag(), await outsideRootDag(), await deepEscapeDag()]) {
      const imported = await carImport(server, ownerKeyOf(app), await carV1([dag.root], dag.blocks), { pinRoots: false });
      expect(imported.status, imported.text).toBe(200);
    }
    escape = (await deepEscapeDag()).root.toString();
  });
  afterAll(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** node:http, so a body cut short still gives its status, headers and the bytes that came. */
  function get(path: string, query: Record<string, string> = {}): Promise<Outcome> {
    const target = new URL(url);
    const search = new URLSearchParams({ ts: String(nowTs()), ...query });
    const headers = { 'X-Access-Key': ownerKeyOf(app).access_key, 'X-Access-Secret': ownerKeyOf(app).access_secret };
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: target.hostname, port: target.port, path: `${path}?${search.toString()}`, headers }, (res) => {
        const chunks: Buffer[] = [];
        const settle = (complete: boolean): void => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), complete });
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => settle(true));
        res.on('aborted', () => settle(false));
        res.on('error', () => settle(false));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('a directory foobar with one file (inside-root.car) is a whole archive, not an empty reply', async () => {
    const response = await get(`/ipfs/${INSIDE_ROOT}`, { format: 'tar' });
    expect(response.status).toBe(200);
    expect(response.complete).toBe(true);
    expect(response.headers['content-type']).toBe('application/x-tar');
    const entries = parseTar(response.body);
    expect(entries.map((entry) => entry.name)).toContain(`${INSIDE_ROOT}/foobar/file`);
    expect(entries.find((entry) => entry.name === `${INSIDE_ROOT}/foobar/file`)?.content.toString()).toBe(FILE_TEXT);
    expect(gatewayLines()).toEqual([]);
  });

  it('a name leading out of the root at the top (outside-root.car) is 406 with the envelope, nothing counted', async () => {
    const before = (await stats({ url }, ownerKeyOf(app))).egress;
    const response = await get(`/ipfs/${OUTSIDE_ROOT}`, { format: 'tar' });
    expect(response.status).toBe(406);
    expect(response.complete).toBe(true);
    const body = JSON.parse(response.body.toString('utf8')) as { code: number; msg: string };
    expect(body).toEqual({
      code: 406,
      msg: expect.stringContaining('relative UnixFS paths outside the root are not allowed') as string,
      error: 'not_acceptable',
    });
    expect((await stats({ url }, ownerKeyOf(app))).egress).toBe(before);
    expect(gatewayLines()).toEqual([]);
  });

  it('a failure after the headers cuts the response short and is logged through the server logger, without query or secrets', async () => {
    logged.length = 0;
    const response = await get(`/ipfs/${escape}`, { format: 'tar', sargs: 'SECRET-SARGS', ssig: 'SECRET-SSIG' });
    expect(response.status).toBe(200);
    expect(response.complete).toBe(false);
    expect(parseTar(response.body).map((entry) => entry.name)).toEqual([`${escape}/`, `${escape}/ok.txt`]);
    expect(gatewayLines()).toHaveLength(1);
    const line = gatewayLines()[0] ?? '';
    expect(line).toMatch(/ warn gateway response cut short after its headers were sent \{/);
    expect(JSON.parse(line.slice(line.indexOf('{')))).toMatchObject({
      method: 'GET',
      path: `/ipfs/${escape}`,
      status: 200,
      error: { name: 'NotAcceptableError', message: expect.stringContaining('"../../escape"') as string },
    });
    for (const secret of ['SECRET', 'sargs', 'ssig', 'ts=', ownerKeyOf(app).access_key, ownerKeyOf(app).access_secret]) expect(line).not.toContain(secret);
  });
});
