import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CarBlockIterator } from '@ipld/car';
import * as dagCbor from '@ipld/dag-cbor';
import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { create as createDigest } from 'multiformats/hashes/digest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importCar } from '../../../../main/content/car/import-car.js';
import { walkDag, walkDagBlocks } from '../../../../main/content/walk/walk-dag.js';
import { openBlockstore, type PinfoldBlockstore } from '../../../../main/store/blockstore/blockstore.js';
import { rawBlock, sha256Digest } from '../../../helpers/raw-blocks.js';
import { tempDir } from '../../../helpers/temp-dirs.js';
import { brokenDagPb, deepCborLinking } from '../../../helpers/unreadable-blocks.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url));

async function load(store: PinfoldBlockstore, path: string): Promise<{ roots: CID[]; totalBytes: number; unique: number }> {
  const bytes = await readFile(join(FIXTURES, path));
  const result = await importCar(store, [bytes]);
  const seen = new Map<string, number>();
  for await (const block of await CarBlockIterator.fromBytes(bytes)) seen.set(Buffer.from(block.cid.multihash.bytes).toString('hex'), block.bytes.byteLength);
  return { roots: result.roots, totalBytes: [...seen.values()].reduce((a, b) => a + b, 0), unique: seen.size };
}

function cborBlock(value: unknown): { cid: CID; bytes: Uint8Array } {
  const bytes = dagCbor.encode(value);
  return { cid: CID.createV1(dagCbor.code, sha256Digest(bytes)), bytes };
}

describe('walkDag', () => {
  let store: PinfoldBlockstore;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    const temp = await tempDir('pinfold-walk-');
    cleanup = temp.cleanup;
    store = await openBlockstore(temp.dir);
  });

  afterEach(async () => {
    await store.close();
    await cleanup();
  });

  it.each([
    'gateway-conformance/tooling/car/_fixtures/dag.car',
    'gateway-conformance/fixtures/path_gateway_unixfs/dir-with-files.car',
    'gateway-conformance/fixtures/trustless_gateway_car/single-layer-hamt-with-multi-block-files.car',
    'gateway-conformance/fixtures/path_gateway_dag/dag-cbor-traversal.car',
    'gateway-conformance/fixtures/path_gateway_dag/dag-json-traversal.car',
    'gateway-conformance/tooling/car/_fixtures/issue-54.car',
  ])('reaches every block of complete DAG %s exactly once', async (path) => {
    const { roots, totalBytes, unique } = await load(store, path);
    const summary = await walkDag(store, roots);
    expect(summary).toEqual({ blocks: unique, bytes: totalBytes, missing: [], unreadable: [] });
  });

  it('the dag.car numbers', async () => {
    const { roots } = await load(store, 'gateway-conformance/tooling/car/_fixtures/dag.car');
    expect(await walkDag(store, roots[0] as CID)).toEqual({ blocks: 5, bytes: 726 + 29998 + 30999 + 58 + 167, missing: [], unreadable: [] });
  });

  it('reports the absent entries of the partial Kubo HAMT and finds its shards by multihash', async () => {
    await load(store, 'kubo/test/cli/fixtures/TestGatewayHAMTDirectory.car');
    const hamt = CID.parse('bafybeiggvykl7skb2ndlmacg2k5modvudocffxjesexlod2pfvg5yhwrqm');
    const summary = await walkDag(store, hamt);
    expect(summary.blocks).toBe(961);
    expect(summary.missing.length).toBeGreaterThan(9000);
    expect(summary.missing.some((cid) => cid.toString() === 'bafkreig4c4yhsya2ewspfrvrbruxsy5m3ews3hrdmpxlwymdo5irrt7d5y')).toBe(true);
  });

  it('follows dag-cbor links, identity CIDs and reports a missing raw leaf without reading leaves', async () => {
    const leaf = rawBlock('a leaf');
    const absent = rawBlock('never stored');
    const inline = cborBlock({ deep: leaf.cid });
    const identity = CID.createV1(dagCbor.code, createDigest(0x00, inline.bytes));
    const root = cborBlock({ a: [leaf.cid, { b: absent.cid }], c: identity, d: leaf.cid });
    await store.put(leaf.cid, leaf.bytes);
    await store.put(root.cid, root.bytes);
    const summary = await walkDag(store, root.cid);
    expect(summary.blocks).toBe(2);
    expect(summary.bytes).toBe(root.bytes.byteLength + leaf.bytes.byteLength);
    expect(summary.missing.map(String)).toEqual([absent.cid.toString()]);
  });

  it('walks a block linked as raw and as dag-pb once, yet follows its dag-pb links', async () => {
    const child = rawBlock('child of a dual-codec block');
    const node = dagPb.encode(dagPb.prepare({ Data: new Uint8Array([8, 1]), Links: [{ Hash: child.cid, Name: 'x', Tsize: 5 }] }));
    const asRaw = CID.createV1(raw.code, sha256Digest(node));
    const asPb = CID.createV1(dagPb.code, asRaw.multihash);
    const root = cborBlock([asRaw, asPb]);
    await store.put(asRaw, node);
    await store.put(child.cid, child.bytes);
    await store.put(root.cid, root.bytes);
    const events = [];
    for await (const event of walkDagBlocks(store, root.cid)) events.push(event);
    expect(events.map((event) => event.kind)).toEqual(['block', 'block', 'block']);
    expect(await walkDag(store, root.cid)).toEqual({
      blocks: 3,
      bytes: root.bytes.byteLength + node.byteLength + child.bytes.byteLength,
      missing: [],
      unreadable: [],
    });
  });

  it('a block whose links cannot be read is reported unreadable, never taken for a leaf', async () => {
    const leaf = rawBlock('below a block nobody can read');
    // A dag-cbor block of 100,000 nested arrays with a link at the bottom: the decoder would overflow.
    const { cid: deep, bytes: deepBytes } = await deepCborLinking(leaf.cid, 100_000);
    const { cid: broken, bytes: brokenBytes } = await brokenDagPb();
    const root = cborBlock([deep, broken]);
    for (const [cid, bytes] of [
      [leaf.cid, leaf.bytes],
      [deep, deepBytes],
      [broken, brokenBytes],
      [root.cid, root.bytes],
    ] as const)
      await store.put(cid, bytes);
    const events = [];
    for await (const event of walkDagBlocks(store, root.cid)) events.push(event);
    expect(events.map((event) => [event.kind, event.cid.toString()])).toEqual([
      ['block', root.cid.toString()],
      ['block', deep.toString()],
      ['unreadable', deep.toString()],
      ['block', broken.toString()],
      ['unreadable', broken.toString()],
    ]);
    expect(events[2]).toMatchObject({ reason: 'it nests deeper than 512 levels' });
    const summary = await walkDag(store, root.cid);
    expect(summary.unreadable.map(String)).toEqual([deep.toString(), broken.toString()]);
    expect(summary.missing).toEqual([]);
  });

  it('a missing root is reported, and the walk honours abort', async () => {
    const { cid } = rawBlock('no such root');
    expect(await walkDag(store, cid)).toEqual({ blocks: 0, bytes: 0, missing: [cid], unreadable: [] });
    const controller = new AbortController();
    controller.abort();
    await expect(walkDag(store, cid, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
