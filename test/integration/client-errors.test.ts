import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFailureEnvelope } from '../helpers/error-envelope.js';
import { nowTs, startTestServer, type TestServer } from '../helpers/test-server.js';

/** Writes raw bytes to the server and reads everything until it closes the connection. */
function exchange(server: TestServer, request: string): Promise<{ status: number; head: string; body: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), head: text.slice(0, split), body: text.slice(split + 4) });
    });
  });
}

describe('requests Node cannot parse get the envelope too (contract section 3)', () => {
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
    [
      'headers larger than the server reads',
      431,
      'headers_too_large',
      (): string => `GET /api/v0/plans HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`,
    ],
    ['a broken request line', 400, 'bad_input', (): string => 'GARBAGE\r\n\r\n'],
    [
      'a Content-Length that is no number',
      400,
      'bad_input',
      (): string => `POST /api/v0/key?ts=${nowTs()} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: abc\r\n\r\n`,
    ],
    [
      'a chunk size that is no number',
      400,
      'bad_input',
      // Signed in, so the call goes on to read its body: without a key it is refused (401) on its headers alone.
      (): string =>
        `POST /api/v0/key?ts=${nowTs()} HTTP/1.1\r\nHost: ${host}\r\nX-Access-Key: ${server.owner.access_key}\r\nX-Access-Secret: ${server.owner.access_secret}\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n`,
    ],
  ] as const)('%s: %i with {code, msg, error: %s}', async (_what, status, error, request) => {
    const answer = await exchange(server, request());
    expect(answer.status).toBe(status);
    expect(answer.head).toMatch(/\r\ncontent-type: application\/json\r\n/i);
    expectFailureEnvelope(JSON.parse(answer.body), status, error);
  });
});
