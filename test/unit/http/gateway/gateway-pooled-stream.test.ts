import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { exporter } from 'ipfs-unixfs-exporter';
import { importBytes } from 'ipfs-unixfs-importer';
import { fixedSize } from 'ipfs-unixfs-importer/chunker';
import type { CID } from 'multiformats/cid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../main/base/logger.js';
import { readBuffers } from '../../../../main/http/gateway/send-body.js';
import { openBlockstore, type PinfoldBlockstore } from '../../../../main/store/blockstore/blockstore.js';
import { tempDir } from '../../../helpers/temp-dirs.js';
import { requestOutcome, startGateway, type Harness } from './gateway-harness.js';

const MiB = 1024 * 1024;
const BLOCKS = 24;

/** Every byte differs from its neighbours in other blocks, so a buffer reused too early shows as a wrong digest. */
function content(): Uint8Array {
  const bytes = new Uint8Array(BLOCKS * MiB);
  let state = 0x9e3779b9;
  for (let i = 0; i < bytes.byteLength; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

let dir: { dir: string; cleanup: () => Promise<void> };
let store: PinfoldBlockstore;
let gw: Harness;
let cid: CID;
let bytes: Uint8Array;
/** Lines the gateway logged. */
const logged: string[] = [];

beforeAll(async () => {
  dir = await tempDir('pinfold-gw-pool-');
  store = await openBlockstore(dir.dir);
  bytes = content();
  cid = (await importBytes(bytes, store, { cidVersion: 1, rawLeaves: true, chunker: fixedSize({ chunkSize: MiB }) })).cid;
  gw = await startGateway(store, { logger: createLogger('debug', (line) => logged.push(line)) });
});

afterAll(async () => {
  await gw.close();
  await store.close();
  await dir.cleanup();
});

/** A new file of `blocks` MiB (the test bytes, flipped by `xor` so it is a file of its own) whose leaf `gone` was deleted. */
async function fileWithLeafGone(blocks: number, xor: number, gone: number): Promise<CID> {
  const file = await importBytes(
    bytes.subarray(0, blocks * MiB).map((b) => b ^ xor),
    store,
    { cidVersion: 1, rawLeaves: true, chunker: fixedSize({ chunkSize: MiB }) },
  );
  const entry = await exporter(file.cid, store);
  if (entry.type !== 'file') throw new Error('expected a file');
  const leaf = entry.node.Links[gone]?.Hash;
  if (leaf === undefined) throw new Error('expected links');
  expect(await store.deleteMultihashes([leaf.multihash.bytes])).toBe(1);
  return file.cid;
}

describe('gateway: streaming from the pack store through reused read buffers', () => {
  it('serves concurrent whole and ranged reads of one file intact, and gives every buffer back', async () => {
    const lentBefore = readBuffers.lentCount;
    const start = 5 * MiB + 123;
    const end = 17 * MiB + 4567;
    const [one, two, ranged] = await Promise.all([
      gw.get(`/ipfs/${cid.toString()}`),
      gw.get(`/ipfs/${cid.toString()}`),
      gw.get(`/ipfs/${cid.toString()}`, { range: `bytes=${start}-${end}` }),
    ]);
    expect(one.status).toBe(200);
    expect(sha(one.body)).toBe(sha(bytes));
    expect(sha(two.body)).toBe(sha(bytes));
    expect(ranged.status).toBe(206);
    expect(sha(ranged.body)).toBe(sha(bytes.subarray(start, end + 1)));
    expect(readBuffers.lentCount).toBe(lentBefore);
    // The pool was used: buffers came back to it.
    expect(readBuffers.freeCount).toBeGreaterThan(0);
  });

  it('a client that hangs up mid-file leaves the next response intact', async () => {
    logged.length = 0;
    // The server's side of the request that will be dropped: its 'close' says the server saw the hang-up.
    const serverClosed = new Promise<void>((resolve) => gw.app.server.once('request', (_req, res) => res.once('close', () => resolve())));
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: gw.port, path: `/ipfs/${cid.toString()}`, agent: false }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
      req.end();
    });
    await serverClosed;
    const again = await gw.get(`/ipfs/${cid.toString()}`);
    expect(again.status).toBe(200);
    expect(sha(again.body)).toBe(sha(bytes));
    // A client that leaves is no failure of the server's: nothing to log.
    expect(logged).toEqual([]);
  });

  it('a file whose first leaf is gone is an error answer without the body headers, not a cut-off 200', async () => {
    const gone = await fileWithLeafGone(3, 0x5a, 0);
    const res = await gw.get(`/ipfs/${gone.toString()}`);
    expect(res.status).toBe(404);
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['cache-control']).toBeUndefined();
    expect(JSON.parse(res.text)).toMatchObject({ code: 404 });
  });

  it('a leaf gone mid-file cuts the response short rather than sending wrong bytes, and says why in the log', async () => {
    const cut = await fileWithLeafGone(4, 0xa5, 2);
    logged.length = 0;
    const outcome = await requestOutcome(gw.port, `/ipfs/${cut.toString()}?filename=x.bin&sargs=SECRET-ARGS&ssig=SECRET-SIG`);
    expect(outcome.status).toBe(200);
    expect(outcome.complete).toBe(false);
    expect(outcome.body.byteLength).toBeLessThan(4 * MiB);
    expect(logged).toHaveLength(1);
    const line = logged[0] ?? '';
    expect(line).toContain(' warn gateway response cut short after its headers were sent ');
    const fields = JSON.parse(line.slice(line.indexOf('{'))) as Record<string, unknown>;
    expect(fields).toMatchObject({ method: 'GET', path: `/ipfs/${cut.toString()}`, status: 200, error: { name: 'NotFoundError' } });
    expect(fields.bytesSent).toBe(outcome.body.byteLength);
    // No query string (an upload address or signature may be in it), no header.
    expect(line).not.toMatch(/SECRET|sargs|filename|host|user-agent/i);
  });
});
