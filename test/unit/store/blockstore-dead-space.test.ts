import { randomBytes } from 'node:crypto';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BlockBatch } from '../../../main/store/blocks.js';
import { openBlockstore, type PinfoldBlockstore } from '../../../main/store/blockstore/blockstore.js';
import { PACK_MAGIC, recordHeaderLength } from '../../../main/store/blockstore/pack-format.js';
import { rawBlock } from '../../helpers/raw-blocks.js';
import { tempDir } from '../../helpers/temp-dirs.js';
import { packBytes } from '../../helpers/pack-files.js';

const MiB = 1024 * 1024;
type Block = ReturnType<typeof rawBlock>;

/** Bytes of every pack file on disk: what the space claims are about. */
async function packCount(dir: string): Promise<number> {
  return (await readdir(join(dir, 'packs'))).length;
}

/** Bytes one block takes in a pack (record header included). */
function recordBytes(block: Block): number {
  return recordHeaderLength(block.cid.multihash.bytes.byteLength) + block.bytes.byteLength;
}

function randomBlocks(count: number, size: number): Block[] {
  return Array.from({ length: count }, () => rawBlock(new Uint8Array(randomBytes(size))));
}

async function putAll(batch: BlockBatch, blocks: readonly Block[]): Promise<void> {
  for (const block of blocks) await batch.put(block.cid, block.bytes);
}

async function expectReadable(store: PinfoldBlockstore, blocks: readonly Block[]): Promise<void> {
  for (const block of blocks) expect(Buffer.from(await store.getBlock(block.cid)).equals(block.bytes)).toBe(true);
}

describe('blockstore: space no committed block uses is given back', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let store: PinfoldBlockstore;

  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
    store = await openBlockstore(dir);
  });

  afterEach(async () => {
    await store.close();
    await cleanup();
  });

  it('a batch aborted after writing 24 MiB leaves the packs as they were, with no GC or compaction', async () => {
    const kept = rawBlock('committed first');
    await store.put(kept.cid, kept.bytes);
    const before = await packBytes(dir);
    expect(before).toBe(PACK_MAGIC.length + recordBytes(kept));

    const batch = store.createBatch();
    // More than the writer's high-water mark, so part is on disk, part in flight, part queued at abort.
    await putAll(batch, randomBlocks(24, MiB));
    expect(await packBytes(dir)).toBeGreaterThan(before + 4 * MiB);
    batch.abort();

    // The next commit waits for the cut (the pump truncates before it writes), so the size is exact.
    const next = rawBlock('committed after the abort');
    await store.put(next.cid, next.bytes);
    expect(await packBytes(dir)).toBe(before + recordBytes(next));
    expect(await store.checkIntegrity({ rehash: true })).toEqual({ checked: 2, problems: [] });
    await expectReadable(store, [kept, next]);
  });

  it('an abort that races the writes (bytes still queued or in flight) never loses a later record', async () => {
    const first = rawBlock('opens the pack');
    await store.put(first.cid, first.bytes);
    const before = await packBytes(dir);
    for (let round = 0; round < 5; round++) {
      const batch = store.createBatch();
      // Not awaited one by one: the abort lands while the pump still writes these.
      await Promise.all(randomBlocks(6, MiB).map((block) => batch.put(block.cid, block.bytes)));
      batch.abort();
    }
    const later = randomBlocks(3, 300_000);
    const committed = store.createBatch();
    await putAll(committed, later);
    await committed.commit();
    expect(await packBytes(dir)).toBe(before + later.reduce((sum, block) => sum + recordBytes(block), 0));
    expect(await store.checkIntegrity({ rehash: true })).toEqual({ checked: 4, problems: [] });
    await expectReadable(store, later);
  });

  it('aborted records followed by other aborted records are cut together once the tail is all dead', async () => {
    const kept = rawBlock('kept');
    await store.put(kept.cid, kept.bytes);
    const before = await packBytes(dir);
    const first = store.createBatch();
    const second = store.createBatch();
    await putAll(first, randomBlocks(2, MiB));
    await putAll(second, randomBlocks(2, MiB));
    await putAll(first, randomBlocks(1, MiB));
    // `first` ends the pack but `second` lies in between: cut back only to where `second` ends.
    first.abort();
    second.abort();
    const next = rawBlock('after both');
    await store.put(next.cid, next.bytes);
    expect(await packBytes(dir)).toBe(before + recordBytes(next));
    await expectReadable(store, [kept, next]);
  });

  it('the copy that lost a race to the same block is given back', async () => {
    const [block] = randomBlocks(1, MiB) as [Block];
    const first = rawBlock('opens the pack');
    await store.put(first.cid, first.bytes);
    const before = await packBytes(dir);
    const a = store.createBatch();
    const b = store.createBatch();
    await a.put(block.cid, block.bytes);
    await b.put(block.cid, block.bytes);
    await a.commit();
    await b.commit();
    const next = rawBlock('after the race');
    await store.put(next.cid, next.bytes);
    expect(await packBytes(dir)).toBe(before + recordBytes(block) + recordBytes(next));
    expect(await store.checkIntegrity({ rehash: true })).toEqual({ checked: 3, problems: [] });
  });
});

describe('blockstore: dead space between committed records', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let store: PinfoldBlockstore | undefined;

  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
  });

  afterEach(async () => {
    await store?.close();
    await cleanup();
  });

  it('rotates the pack once its dead bytes reach maxDeadBytes and rewrites it in the background', async () => {
    store = await openBlockstore(dir, undefined, { maxDeadBytes: 4 * MiB });
    const committed: Block[] = [];
    for (let round = 0; round < 3; round++) {
      const aborted = store.createBatch();
      const kept = store.createBatch();
      await putAll(aborted, randomBlocks(2, MiB));
      const blocks = randomBlocks(1, 100_000);
      await putAll(kept, blocks);
      // The aborted records lie before a committed one: they cannot be cut, only counted.
      aborted.abort();
      await kept.commit();
      committed.push(...blocks);
    }
    await store.idle();
    const live = committed.reduce((sum, block) => sum + recordBytes(block), 0);
    // 6 MiB were aborted; what is left on disk is the live records, one pack's magic each, and the dead
    // bytes of the pack still appended to (below maxDeadBytes).
    const onDisk = await packBytes(dir);
    expect(onDisk).toBeLessThan(live + 4 * MiB + 4 * PACK_MAGIC.length);
    expect(onDisk).toBeLessThan(3 * MiB);
    expect(await store.checkIntegrity({ rehash: true })).toEqual({ checked: 3, problems: [] });
    await expectReadable(store, committed);
  });

  it('counts GC deletes in the pack still appended to, and rewrites it when they pass the limit', async () => {
    store = await openBlockstore(dir, undefined, { maxDeadBytes: 2 * MiB });
    const doomed = randomBlocks(3, MiB);
    const kept = randomBlocks(2, 1000);
    const batch = store.createBatch();
    await putAll(batch, [...doomed, ...kept]);
    await batch.commit();
    expect(await store.deleteMultihashes(doomed.map((block) => block.cid.multihash.bytes))).toBe(3);
    await store.idle();
    expect(await packBytes(dir)).toBeLessThan(PACK_MAGIC.length * 2 + kept.reduce((sum, block) => sum + recordBytes(block), 0) + 1);
    await expectReadable(store, kept);
  });

  it('concurrent committed batches beside aborted ones stay intact through rotations and compactions', async () => {
    const limits = { packSizeBytes: 3 * MiB, maxDeadBytes: 256 * 1024 };
    store = await openBlockstore(dir, undefined, limits);
    const open = store;
    const committed: Block[] = [];
    const work = Array.from({ length: 12 }, async (_, i) => {
      const batch = open.createBatch();
      const blocks = randomBlocks(4, 256 * 1024 + i);
      for (const [n, block] of blocks.entries()) {
        await batch.put(block.cid, block.bytes);
        // Every third batch gives up midway, as a rejected upload does.
        if (i % 3 === 0 && n === 2) {
          batch.abort();
          return;
        }
      }
      await batch.commit();
      committed.push(...blocks);
    });
    // A GC-style compaction runs beside the uploads, as GC's does.
    await Promise.all([...work, open.compact()]);
    await open.idle();
    expect(committed).toHaveLength(32);
    expect(await open.checkIntegrity({ rehash: true })).toEqual({ checked: 32, problems: [] });
    await expectReadable(open, committed);
    const live = committed.reduce((sum, block) => sum + recordBytes(block), 0);
    // 3 MiB were aborted; at rest no pack holds maxDeadBytes of dead space (sealed ones were rewritten,
    // the current one rotates).
    const dead = (await packBytes(dir)) - live - (await packCount(dir)) * PACK_MAGIC.length;
    expect(dead).toBeLessThan((await packCount(dir)) * limits.maxDeadBytes);

    // And a restart keeps all of it.
    await open.close();
    store = await openBlockstore(dir, undefined, { exclusive: true, ...limits });
    await store.idle();
    expect(await store.checkIntegrity({ rehash: true })).toEqual({ checked: 32, problems: [] });
  });

  it('a mostly live pack left with dead bytes past maxDeadBytes (the issue: 159 MB kept through GC and restarts) is rewritten at the next open', async () => {
    store = await openBlockstore(dir, undefined, { maxDeadBytes: MiB });
    const aborted = store.createBatch();
    await putAll(aborted, randomBlocks(3, 512 * 1024));
    const live = randomBlocks(4, MiB);
    const kept = store.createBatch();
    await putAll(kept, live);
    await kept.commit();
    // Closing aborts the open batch: 1.5 MiB dead before 4 MiB live, a live share of 73%.
    await store.close();
    const liveBytes = live.reduce((sum, block) => sum + recordBytes(block), 0);
    expect(await packBytes(dir)).toBeGreaterThan(PACK_MAGIC.length + liveBytes + MiB);

    store = await openBlockstore(dir, undefined, { exclusive: true, maxDeadBytes: MiB });
    await store.idle();
    expect(await packBytes(dir)).toBe(PACK_MAGIC.length + liveBytes);
    expect(await store.checkIntegrity({ rehash: true })).toEqual({ checked: 4, problems: [] });
    await expectReadable(store, live);
  });

  it('an exclusive open deletes stray pack files and packs nothing indexed lies in', async () => {
    store = await openBlockstore(dir);
    const kept = rawBlock('kept across the restart');
    await store.put(kept.cid, kept.bytes);
    await store.close();
    const withKept = await packBytes(dir);
    // A crash between compaction's row delete and its unlink leaves a file no row names.
    await writeFile(join(dir, 'packs', '00000077.pack'), Buffer.concat([PACK_MAGIC, Buffer.alloc(MiB, 7)]));
    // A process that died with an open pack holding only staged records.
    store = await openBlockstore(dir);
    const batch = store.createBatch();
    await putAll(batch, randomBlocks(2, MiB));
    await store.close();
    expect(await packBytes(dir)).toBeGreaterThan(withKept + MiB);

    store = await openBlockstore(dir, undefined, { exclusive: true });
    expect(await packBytes(dir)).toBe(withKept);
    expect(await readdir(join(dir, 'packs'))).not.toContain('00000077.pack');
    await expectReadable(store, [kept]);
  });
});
