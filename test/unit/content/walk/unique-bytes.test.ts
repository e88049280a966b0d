import { randomBytes } from 'node:crypto';
import * as dagPb from '@ipld/dag-pb';
import { MemoryBlockstore } from 'blockstore-core/memory';
import { importer, type ImporterOptions } from 'ipfs-unixfs-importer';
import { fixedSize } from 'ipfs-unixfs-importer/chunker';
import { CID } from 'multiformats/cid';
import { describe, expect, it } from 'vitest';
import { multihashKey } from '../../../../main/base/multihash-key.js';
import { getBlock } from '../../../../main/content/read/index.js';
import { uniqueBytes } from '../../../../main/content/walk/unique-bytes.js';

type Tree = Record<string, Uint8Array>;

const text = (value: string): Uint8Array => new TextEncoder().encode(value);

async function put(store: MemoryBlockstore, tree: Tree, options: Partial<ImporterOptions> = {}): Promise<CID> {
  const source = Object.entries(tree).map(([name, content]) => ({ path: `root/${name}`, content }));
  let root: CID | undefined;
  const settings: Partial<ImporterOptions> = { cidVersion: 1, rawLeaves: true, chunker: fixedSize({ chunkSize: 1024 }), ...options };
  for await (const entry of importer(source, store, settings)) if (entry.path === 'root') root = entry.cid;
  if (!root) throw new Error('no root');
  return root;
}

/** The reference: every block of each whole DAG, read; the bytes of those under `older` and not under `newer`. */
async function reference(store: MemoryBlockstore, older: CID, newer: CID): Promise<number> {
  const all = async (root: CID): Promise<Map<string, number>> => {
    const found = new Map<string, number>();
    const pending = [root];
    for (let cid = pending.pop(); cid; cid = pending.pop()) {
      const key = multihashKey(cid.multihash.bytes);
      if (found.has(key)) continue;
      const bytes = await getBlock(store, cid);
      found.set(key, bytes.byteLength);
      if (cid.code === dagPb.code) for (const link of dagPb.decode(bytes).Links) pending.push(link.Hash);
    }
    return found;
  };
  const [before, after] = await Promise.all([all(older), all(newer)]);
  let bytes = 0;
  for (const [key, size] of before) if (!after.has(key)) bytes += size;
  return bytes;
}

describe('uniqueBytes', () => {
  const big = randomBytes(10 * 1024);
  const base: Tree = { 'big.bin': big, 'small.txt': text('small'), 'dir/inner.txt': text('inner'), 'dir/deeper/x.txt': text('x') };

  const cases: Array<[string, Tree, Partial<ImporterOptions>?]> = [
    ['a file modified, one removed', { ...base, 'small.txt': text('small, changed'), 'dir/inner.txt': undefined as unknown as Uint8Array }],
    ['one chunk of a large file changed', { ...base, 'big.bin': Buffer.concat([big.subarray(0, 4096), randomBytes(1024), big.subarray(5120)]) }],
    ['a directory replaced by a file', { 'big.bin': big, 'small.txt': text('small'), dir: text('now a file') }],
    ['a file replaced by a directory', { ...base, 'small.txt': undefined as unknown as Uint8Array, 'small.txt/in.txt': text('in') }],
    ['a file renamed', { ...base, 'big.bin': undefined as unknown as Uint8Array, 'moved.bin': big }],
  ];

  for (const [name, change] of cases) {
    it(`${name}: the bytes only the older version holds, as a whole walk finds them`, async () => {
      const store = new MemoryBlockstore();
      const older = await put(store, base);
      const tree = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
      const newer = await put(store, tree);
      const expected = await reference(store, older, newer);
      expect(expected).toBeGreaterThan(0);
      expect(await uniqueBytes(store, older, newer)).toBe(expected);
    });
  }

  it('HAMT directories: only the changed shards and entries count', async () => {
    const store = new MemoryBlockstore();
    const many: Tree = {};
    for (let i = 0; i < 300; i++) many[`f${i}.txt`] = text(`file ${i}`);
    const options = { shardSplitThresholdBytes: 256 };
    const older = await put(store, many, options);
    const newer = await put(store, { ...many, 'f7.txt': text('file 7, changed'), 'f100.txt': text('file 100, changed') }, options);
    const expected = await reference(store, older, newer);
    expect(await uniqueBytes(store, older, newer)).toBe(expected);
  });

  it('the same version holds nothing of its own', async () => {
    const store = new MemoryBlockstore();
    const root = await put(store, base);
    expect(await uniqueBytes(store, root, root)).toBe(0);
  });

  it('never reads a raw leaf: a DAG whose leaves are gone is measured all the same', async () => {
    const store = new MemoryBlockstore();
    const older = await put(store, base);
    const newer = await put(store, { ...base, 'big.bin': randomBytes(10 * 1024) });
    const expected = await reference(store, older, newer);
    const leaves: CID[] = [];
    const pending = [older, newer];
    for (let cid = pending.pop(); cid; cid = pending.pop()) {
      if (cid.code !== dagPb.code) leaves.push(cid);
      else for (const link of dagPb.decode(await getBlock(store, cid)).Links) pending.push(link.Hash);
    }
    expect(leaves.length).toBeGreaterThan(10);
    for (const leaf of leaves) if (await store.has(leaf)) await store.delete(leaf);
    expect(await uniqueBytes(store, older, newer)).toBe(expected);
  });
});
