import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { MemoryBlockstore } from 'blockstore-core/memory';
import { importBytes } from 'ipfs-unixfs-importer';
import { fixedSize } from 'ipfs-unixfs-importer/chunker';
import type { CID } from 'multiformats/cid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadBlockstore } from '../../../../main/content/read/blocks.js';
import { startGateway, type Harness } from './gateway-harness.js';

const MiB = 1024 * 1024;
const BLOCKS = 48;

/** Counts block reads, to see that a response reads the store only as fast as the client takes bytes. */
function countingStore(inner: MemoryBlockstore): ReadBlockstore & { reads: number } {
  const store = {
    reads: 0,
    get: (cid: CID, options?: { signal?: AbortSignal }) => {
      store.reads++;
      return inner.get(cid, options);
    },
    has: (cid: CID, options?: { signal?: AbortSignal }) => inner.has(cid, options),
  };
  return store;
}

let gw: Harness;
let store: ReturnType<typeof countingStore>;
let cid: CID;
let digest: string;

beforeAll(async () => {
  const content = new Uint8Array(BLOCKS * MiB);
  for (let i = 0; i < content.byteLength; i += 4096) content[i] = (i / 4096) % 251;
  digest = createHash('sha256').update(content).digest('hex');
  const memory = new MemoryBlockstore();
  cid = (await importBytes(content, memory, { cidVersion: 1, rawLeaves: true, chunker: fixedSize({ chunkSize: MiB }) })).cid;
  store = countingStore(memory);
  gw = await startGateway(store);
});

afterAll(async () => {
  await gw.close();
});

describe('gateway: streaming', () => {
  it('streams a 48 MiB multi-block file intact', async () => {
    const res = await gw.get(`/ipfs/${cid.toString()}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe(String(BLOCKS * MiB));
    expect(createHash('sha256').update(res.body).digest('hex')).toBe(digest);
  });

  it('stops reading the store when the client goes away', async () => {
    store.reads = 0;
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: gw.port, path: `/ipfs/${cid.toString()}` }, (res) => {
        res.once('data', () => {
          // Take one chunk, then hang up without reading further.
          req.destroy();
          resolve();
        });
      });
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
      req.end();
    });
    // Poll (with a deadline) until the server has dropped the connection, then check reads have stopped.
    const connections = () => new Promise<number>((resolve) => gw.app.server.getConnections((_err, count) => resolve(count)));
    const deadline = Date.now() + 5000;
    while ((await connections()) > 0 && Date.now() < deadline) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(await connections()).toBe(0);
    const afterClose = store.reads;
    for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(store.reads).toBe(afterClose);
    expect(store.reads).toBeGreaterThan(0);
    expect(store.reads).toBeLessThan(BLOCKS / 2);
  });
});
