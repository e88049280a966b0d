import { rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type PinfoldApp } from '../../main/app/create-app.js';
import { testConfig } from '../helpers/test-network.js';
import { createLogger } from '../../main/base/logger.js';
import { makeTempDir } from '../helpers/test-server.js';
import { suiteDatabase } from '../helpers/suite-database.js';

interface Outcome {
  status: number;
  body: Buffer;
  /** False when the connection closed before the body ended. */
  complete: boolean;
}

/**
 * A route that streams its body through Fastify (as the renderer's files are sent) and fails after the
 * headers went out: the client sees a body cut short, and the server's logger says why, without the query
 * string or any header. The route is added to a real server for the test only.
 */
describe('failures after the headers on routes that stream through Fastify', () => {
  let dataDir: string;
  let app: PinfoldApp;
  let url: string;
  const logged: string[] = [];
  const SECRET = 'do-not-log-this-secret';
  let endlessClosed: Promise<unknown> | undefined;

  /** Sends `first`, then fails as a disk read would. */
  function failingBody(first: Buffer): Readable {
    let sent = false;
    return new Readable({
      read() {
        if (!sent) {
          sent = true;
          this.push(first);
        } else {
          // Later, once the headers and the first chunk are out.
          setImmediate(() => this.destroy(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' })));
        }
      },
    });
  }

  beforeAll(async () => {
    dataDir = await makeTempDir();
    app = await createApp({
      config: testConfig({ dataDir, port: 0, ...(await suiteDatabase(dataDir)) }),
      env: {},
      logger: createLogger('info', (line) => logged.push(line)),
    });
    const open = { config: { access: 'public' as const } };
    app.server.get('/test-only/failing-stream', open, (_request, reply) =>
      reply
        .type('application/octet-stream')
        .header('content-length', 2 * 65536)
        .send(failingBody(Buffer.alloc(65536, 1))),
    );
    app.server.get('/test-only/whole-stream', open, (_request, reply) => reply.type('application/octet-stream').send(Readable.from([Buffer.alloc(10, 2)])));
    app.server.get('/test-only/endless-stream', open, (_request, reply) => {
      const body = new Readable({
        read() {
          this.push(Buffer.alloc(65536, 3));
        },
      });
      endlessClosed = new Promise((resolve) => body.once('close', resolve));
      return reply.type('application/octet-stream').send(body);
    });
    url = await app.listen();
  });
  afterAll(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  function get(path: string, headers: Record<string, string> = {}): Promise<Outcome> {
    const target = new URL(url);
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: target.hostname, port: target.port, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        const settle = (complete: boolean): void => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), complete });
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => settle(true));
        res.on('aborted', () => settle(false));
        res.on('error', () => settle(false));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('the response is cut short and the failure logged as an error: method, route, path and status, no query or header', async () => {
    logged.length = 0;
    const outcome = await get(`/test-only/failing-stream?access_secret=${SECRET}&sargs=abc`, { 'X-Access-Secret': SECRET });
    expect(outcome.status).toBe(200);
    expect(outcome.complete).toBe(false);
    expect(outcome.body.byteLength).toBeLessThan(2 * 65536);
    const lines = logged.filter((line) => line.includes('response cut short after its headers were sent'));
    expect(lines).toHaveLength(1);
    const line = lines[0] as string;
    expect(line).toContain(' error ');
    const fields = JSON.parse(line.slice(line.indexOf('{'))) as Record<string, unknown>;
    expect(fields).toEqual({
      method: 'GET',
      route: '/test-only/failing-stream',
      path: '/test-only/failing-stream',
      status: 200,
      error: { name: 'Error', message: 'EIO: i/o error, read' },
    });
    expect(logged.join('\n')).not.toContain(SECRET);
    expect(logged.join('\n')).not.toContain('sargs');
  });

  it('a client that leaves before the body ends is no failure: nothing is logged', async () => {
    logged.length = 0;
    const target = new URL(url);
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: target.hostname, port: target.port, path: '/test-only/endless-stream' }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => undefined);
      req.on('close', () => resolve());
      req.end();
      req.on('socket', (socket) => socket.on('error', reject));
    });
    // The server destroys the body once it sees the response close.
    await endlessClosed;
    expect(logged).toEqual([]);
  });

  it('a body sent whole logs nothing', async () => {
    logged.length = 0;
    const outcome = await get('/test-only/whole-stream');
    expect(outcome).toMatchObject({ status: 200, complete: true });
    expect(logged).toEqual([]);
  });
});
