import { describe, expect, it } from 'vitest';
import type { CID } from 'multiformats/cid';
import { EMPTY_DIRECTORY_CID, directoryStats, editDirectory, type DirectoryStats } from '../../../../main/content/directory/index.js';
import { content, CountingBlockstore, importerDirectory, prng } from './directory-helpers.js';
import { readShardBlockLengths } from './shard-lengths.js';

/** Names of exactly `length` bytes, so the links-bytes estimate is (length + 36) per raw-leaf entry. */
function name(i: number, length = 28): string {
  return `f${i.toString().padStart(length - 1, '0')}`;
}

async function buildWithEdits(blockstore: CountingBlockstore, entries: ReadonlyArray<readonly [string, CID]>, batchSize: number) {
  let root = EMPTY_DIRECTORY_CID;
  let stats: DirectoryStats | undefined;
  for (let start = 0; start < entries.length; start += batchSize) {
    const result = await editDirectory(blockstore, root, { add: entries.slice(start, start + batchSize) }, { statsOf: () => stats });
    root = result.cid;
    stats = result.stats;
  }
  return { root, stats };
}

describe('editDirectory matches ipfs-unixfs-importer 17 built from scratch', () => {
  it('just under the 256 KiB threshold stays plain, one byte over becomes a HAMT', async () => {
    const blockstore = new CountingBlockstore();
    // 4096 entries x (28 name bytes + 36 CID bytes) = 262144: not above the threshold.
    const files = Array.from({ length: 4096 }, (_, i) => ({ path: name(i), content: content(i) }));
    const reference = await importerDirectory(blockstore, files);
    const pairs = reference.files.map((file) => [file.name, file.cid] as const);
    const built = await buildWithEdits(blockstore, pairs, 1000);
    expect(built.root.toString()).toBe(reference.root.toString());
    expect(built.stats).toMatchObject({ kind: 'plain', entries: 4096, linksBytes: 262_144 });

    // One more name byte: 262145 > 262144, the importer shards.
    const longer = name(4096, 29);
    const over = await importerDirectory(
      blockstore,
      [...files, { path: longer, content: content(4096) }].filter((f) => f.path !== name(0)),
    );
    const overFile = over.files.find((file) => file.name === longer) as { cid: CID };
    const edited = await editDirectory(blockstore, built.root, { add: [[longer, overFile.cid]], remove: [name(0)] });
    expect(edited.stats).toMatchObject({ kind: 'hamt', entries: 4096, linksBytes: 262_145 });
    expect(edited.cid.toString()).toBe(over.root.toString());

    // And back: removing that entry again gives the plain directory once more.
    const back = await editDirectory(blockstore, edited.cid, { remove: [longer], add: [[name(0), pairs[0]?.[1] as CID]] }, { statsOf: () => edited.stats });
    expect(back.cid.toString()).toBe(reference.root.toString());
    expect(back.stats.kind).toBe('plain');
  });

  it('10,000 entries: same HAMT whether built in batches, in one call, or edited from another state', async () => {
    const blockstore = new CountingBlockstore();
    const files = Array.from({ length: 10_000 }, (_, i) => ({ path: `file-${i}.txt`, content: content(i) }));
    const reference = await importerDirectory(blockstore, files);
    const pairs = reference.files.map((file) => [file.name, file.cid] as const);
    const oneCall = await editDirectory(blockstore, EMPTY_DIRECTORY_CID, { add: pairs });
    expect(oneCall.cid.toString()).toBe(reference.root.toString());
    expect(oneCall.stats.kind).toBe('hamt');
    expect(oneCall.size).toBe(reference.files.reduce((sum, file) => sum + file.size, 0) + (await readShardBlockLengths(blockstore, oneCall.cid)));

    // Reverse order, in batches of 777: the layout depends only on the set of names.
    const batched = await buildWithEdits(blockstore, [...pairs].reverse(), 777);
    expect(batched.root.toString()).toBe(reference.root.toString());

    // Remove 500 and re-add them, against a reference import of the smaller set.
    const removed = pairs.slice(1000, 1500).map(([n]) => n);
    const smaller = await editDirectory(blockstore, oneCall.cid, { remove: removed }, { statsOf: () => oneCall.stats });
    const smallerReference = await importerDirectory(
      blockstore,
      files.filter((f) => !removed.includes(f.path)),
    );
    expect(smaller.cid.toString()).toBe(smallerReference.root.toString());
    expect(smaller.stats.entries).toBe(9500);
    const again = await editDirectory(blockstore, smaller.cid, { add: pairs.slice(1000, 1500) }, { statsOf: () => smaller.stats });
    expect(again.cid.toString()).toBe(reference.root.toString());
    expect(await directoryStats(blockstore, again.cid)).toEqual(oneCall.stats);
  });

  it('random sequences of adds, replacements and removes cross the threshold both ways', async () => {
    const blockstore = new CountingBlockstore();
    const random = prng(42);
    const threshold = 1500; // small, so a few dozen entries flip the layout and every step stays cheap
    const pool = Array.from({ length: 40 }, (_, i) => content(i));
    const poolCids = (
      await importerDirectory(
        blockstore,
        pool.map((c, i) => ({ path: `p${i}`, content: c })),
      )
    ).files;
    const state = new Map<string, number>();
    let root = EMPTY_DIRECTORY_CID;
    let stats: DirectoryStats | undefined;
    const kinds = new Set<string>();
    const sizes: number[] = [];
    for (let step = 0; step < 120; step++) {
      const add: Array<[string, CID]> = [];
      const remove: string[] = [];
      const touched = new Set<string>();
      const adds = Math.floor(random() * (step % 30 < 15 ? 12 : 3));
      for (let i = 0; i < adds; i++) {
        const entryName = `n${Math.floor(random() * 150)}${random() < 0.1 ? 'ł€😀' : ''}`;
        if (touched.has(entryName)) continue;
        touched.add(entryName);
        const file = Math.floor(random() * pool.length);
        add.push([entryName, (poolCids[file] as { cid: CID }).cid]);
      }
      const existing = [...state.keys()];
      const removes = Math.floor(random() * (step % 30 < 15 ? 3 : 12));
      for (let i = 0; i < removes && existing.length > 0; i++) {
        const victim = existing[Math.floor(random() * existing.length)] as string;
        if (touched.has(victim)) continue;
        touched.add(victim);
        remove.push(victim);
      }
      const result = await editDirectory(blockstore, root, { add, remove }, { shardSplitThresholdBytes: threshold, statsOf: () => stats });
      for (const victim of remove) state.delete(victim);
      for (const [entryName, cid] of add)
        state.set(
          entryName,
          poolCids.findIndex((f) => f.cid.equals(cid)),
        );
      root = result.cid;
      stats = result.stats;
      kinds.add(result.stats.kind);
      sizes.push(state.size);
      const reference = await importerDirectory(
        blockstore,
        [...state].map(([entryName, file]) => ({ path: entryName, content: pool[file] as Uint8Array })),
        { shardSplitThresholdBytes: threshold },
      );
      expect(result.cid.toString(), `step ${step}`).toBe(reference.root.toString());
      expect(result.stats.entries).toBe(state.size);
    }
    expect(kinds, `sizes ${sizes.join(',')}`).toEqual(new Set(['plain', 'hamt']));
  });

  it('follows the block-bytes strategy (IPIP-499 unixfs-v1-2025) when asked', async () => {
    const blockstore = new CountingBlockstore();
    const files = Array.from({ length: 60 }, (_, i) => ({ path: `entry-${i}`, content: content(i) }));
    const kinds: string[] = [];
    for (const count of [20, 45, 46, 47, 48, 49, 50, 60]) {
      const reference = await importerDirectory(blockstore, files.slice(0, count), { shardSplitStrategy: 'block-bytes', shardSplitThresholdBytes: 2500 });
      const result = await editDirectory(
        blockstore,
        EMPTY_DIRECTORY_CID,
        { add: reference.files.map((f) => [f.name, f.cid] as const) },
        {
          shardSplitStrategy: 'block-bytes',
          shardSplitThresholdBytes: 2500,
        },
      );
      expect(result.cid.toString(), `${count} entries`).toBe(reference.root.toString());
      kinds.push(result.stats.kind);
    }
    expect(kinds[0]).toBe('plain');
    expect(kinds[kinds.length - 1]).toBe('hamt');
  });
});
