import { randomBytes } from 'node:crypto';
import { MemoryBlockstore } from 'blockstore-core/memory';
import { importer } from 'ipfs-unixfs-importer';
import { fixedSize } from 'ipfs-unixfs-importer/chunker';
import { balanced } from 'ipfs-unixfs-importer/layout';
import { exporter, type RawNode, type UnixFSFile } from 'ipfs-unixfs-exporter';
import type { CID } from 'multiformats/cid';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BadInputError } from '../../../../main/base/errors.js';
import { importDirectoryTree, type TreeEntry } from '../../../../main/content/import/import-directory-tree.js';
import { openBlockstore, type PinfoldBlockstore } from '../../../../main/store/blockstore/blockstore.js';
import { tempDir } from '../../../helpers/temp-dirs.js';
import { directoryVector, loadVectors, vectorLayout } from './vectors.js';

const MiB = 1024 * 1024;

async function referenceRoot(files: Array<{ path: string; bytes: Uint8Array }>): Promise<CID> {
  let cid: CID | undefined;
  const options = {
    cidVersion: 1 as const,
    rawLeaves: true,
    reduceSingleLeafToSelf: true,
    chunker: fixedSize({ chunkSize: MiB }),
    layout: balanced({ maxChildrenPerNode: 1024 }),
    wrapWithDirectory: true,
    shardSplitThresholdBytes: 262_144,
  };
  const source = files.map((file) => ({ path: file.path, content: [file.bytes] }));
  for await (const entry of importer(source, new MemoryBlockstore(), options)) cid = entry.cid;
  return cid as CID;
}

describe('importDirectoryTree', () => {
  let store: PinfoldBlockstore;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    const temp = await tempDir('pinfold-tree-');
    cleanup = temp.cleanup;
    store = await openBlockstore(temp.dir);
  });

  afterEach(async () => {
    await store.close();
    await cleanup();
  });

  it('matches ipfs-unixfs-importer with wrapWithDirectory on a mixed tree', async () => {
    const files = [
      { path: 'a.txt', bytes: randomBytes(10) },
      { path: 'docs/big.bin', bytes: randomBytes(2 * MiB + 5) },
      { path: 'docs/empty', bytes: new Uint8Array(0) },
      { path: 'docs/deep/er/x.bin', bytes: randomBytes(MiB) },
    ];
    const result = await importDirectoryTree(
      store,
      files.map((file) => ({ path: file.path, content: [file.bytes] })),
    );
    expect(result.cid.toString()).toBe((await referenceRoot(files)).toString());
    const paths = result.entries.map((entry) => entry.path).sort();
    expect(paths).toEqual(['a.txt', 'docs', 'docs/big.bin', 'docs/deep', 'docs/deep/er', 'docs/deep/er/x.bin', 'docs/empty']);
    const entry = await exporter(`${result.cid.toString()}/docs/big.bin`, store);
    const parts: Uint8Array[] = [];
    for await (const part of (entry as UnixFSFile | RawNode).content()) parts.push(part);
    expect(Buffer.concat(parts).equals(files[1]?.bytes as Uint8Array)).toBe(true);
  });

  it('shards a directory above 256 KiB into a HAMT, as the importer does', async () => {
    const files = Array.from({ length: 1300 }, (_, i) => ({ path: `many/${'n'.repeat(180)}-${i}.txt`, bytes: new TextEncoder().encode(`${i}`) }));
    const result = await importDirectoryTree(
      store,
      files.map((file) => ({ path: file.path, content: [file.bytes] })),
    );
    expect(result.cid.toString()).toBe((await referenceRoot(files)).toString());
    const many = result.entries.find((entry) => entry.path === 'many');
    const dir = await exporter(many?.cid as CID, store);
    expect(dir.type).toBe('directory');
    expect((dir as { unixfs: { type: string } }).unixfs.type).toBe('hamt-sharded-directory');
  });

  it('an empty set of entries is the empty directory', async () => {
    const result = await importDirectoryTree(store, []);
    expect(result.cid.toString()).toBe('bafybeiczsscdsbs7ffqz55asqdf3smv6klcw3gofszvwlyarci47bgf354');
    expect(await store.has(result.cid)).toBe(true);
  });

  it('computes every known-answer directory vector', async () => {
    let checked = 0;
    for (const vector of await loadVectors()) {
      const tree = await directoryVector(vector);
      if (tree === undefined) continue;
      const result = await importDirectoryTree(new MemoryBlockstore(), tree.entries, vectorLayout(vector));
      const cids = new Map(result.entries.map((entry) => [entry.path, entry.cid.toString()]));
      cids.set('', result.cid.toString());
      expect(cids.get(tree.target), vector.id).toBe(vector.expected_cid);
      for (const [path, cid] of Object.entries(vector.expected_child_cids ?? {})) {
        expect(cids.get(path), `${vector.id} ${path}`).toBe(cid);
      }
      checked++;
    }
    expect(checked).toBe(13);
  });

  it('rejects paths that climb out or are empty, storing nothing', async () => {
    for (const path of ['../x', 'a/../../b', '', '/', 'a/\0b']) {
      const entries: TreeEntry[] = [
        { path: 'ok.txt', content: [randomBytes(100)] },
        { path, content: [randomBytes(10)] },
      ];
      await expect(importDirectoryTree(store, entries), path).rejects.toBeInstanceOf(BadInputError);
    }
    expect((await store.stats()).blocks).toBe(0);
  });
});
