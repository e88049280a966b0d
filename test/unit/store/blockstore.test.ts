import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { create as createDigest } from 'multiformats/hashes/digest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BadInputError, NotFoundError } from '../../../main/base/errors.js';
import type { Clock } from '../../../main/base/clock.js';
import { openDatabase } from '../../../main/store/db/database.js';
import { sqliteStore } from '../../../main/store/db/sqlite-store.js';
import { openBlockstore, type PinfoldBlockstore } from '../../../main/store/blockstore/blockstore.js';
import { collect, collectBytes } from '../../helpers/collect.js';
import { asDagPb, rawBlock } from '../../helpers/raw-blocks.js';
import { tempDir } from '../../helpers/temp-dirs.js';

function fakeClock(start = 1_700_000_000_000): Clock & { advance(seconds: number): void } {
  let now = start;
  return {
    nowMs: () => now,
    advance(seconds: number) {
      now += seconds * 1000;
    },
  };
}

describe('PinfoldBlockstore', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let store: PinfoldBlockstore;
  let clock = fakeClock();

  beforeEach(async () => {
    clock = fakeClock();
    ({ dir, cleanup } = await tempDir());
    store = await openBlockstore(dir, undefined, { clock });
  });

  afterEach(async () => {
    await store.close();
    await cleanup();
  });

  it('stores by multihash: a block put under a raw CID is found under the dag-pb CID', async () => {
    const block = rawBlock('hello blocks');
    await store.put(block.cid, block.bytes);
    const other = asDagPb(block.cid);
    expect(await store.has(other)).toBe(true);
    expect(Buffer.from(await collectBytes(store.get(other)))).toEqual(Buffer.from(block.bytes));
    expect(await store.blockSize(other)).toBe(block.bytes.byteLength);
    expect(await store.stats()).toEqual({ blocks: 1, bytes: block.bytes.byteLength });
  });

  it('rejects a block whose bytes do not match its CID and stores nothing', async () => {
    const block = rawBlock('genuine');
    await expect(store.put(block.cid, new TextEncoder().encode('tampered'))).rejects.toBeInstanceOf(BadInputError);
    expect(await store.has(block.cid)).toBe(false);
    expect(await store.stats()).toEqual({ blocks: 0, bytes: 0 });
  });

  it('rejects unsupported hash functions and truncated digests', async () => {
    const bytes = new TextEncoder().encode('x');
    const blake = CID.createV1(raw.code, createDigest(0xb220, new Uint8Array(32)));
    await expect(store.put(blake, bytes)).rejects.toBeInstanceOf(BadInputError);
    const short = CID.createV1(raw.code, createDigest(0x12, rawBlock(bytes).cid.multihash.digest.subarray(0, 20)));
    await expect(store.put(short, bytes)).rejects.toBeInstanceOf(BadInputError);
    expect((await store.stats()).blocks).toBe(0);
  });

  it('never stores identity CIDs but serves them', async () => {
    const bytes = new TextEncoder().encode('hello\n');
    const cid = CID.createV1(raw.code, createDigest(0x00, bytes));
    expect(cid.toString()).toBe('bafkqabtimvwgy3yk');
    await store.put(cid, bytes);
    expect((await store.stats()).blocks).toBe(0);
    expect(await store.has(cid)).toBe(true);
    expect(Buffer.from(await store.getBlock(cid)).toString()).toBe('hello\n');
    await expect(store.put(cid, new TextEncoder().encode('other'))).rejects.toBeInstanceOf(BadInputError);
  });

  it('throws NotFoundError (name NotFoundError, as interface-store) for an absent block', async () => {
    const { cid } = rawBlock('absent');
    await expect(store.getBlock(cid)).rejects.toBeInstanceOf(NotFoundError);
    await expect(collectBytes(store.get(cid))).rejects.toMatchObject({ name: 'NotFoundError' });
    expect(await store.findBlock(cid)).toBeUndefined();
  });

  it('keeps a batch invisible until commit, and abort leaves nothing referenced', async () => {
    const a = rawBlock('batch a');
    const b = rawBlock('batch b');
    const batch = store.createBatch();
    await batch.put(a.cid, a.bytes);
    expect(await batch.has(a.cid)).toBe(true);
    expect(await store.has(a.cid)).toBe(false);
    await batch.commit();
    expect(await store.has(a.cid)).toBe(true);

    const aborted = store.createBatch();
    await aborted.put(b.cid, b.bytes);
    aborted.abort();
    expect(await store.has(b.cid)).toBe(false);
    await expect(aborted.put(b.cid, b.bytes)).rejects.toThrow(/aborted/);
    expect(await store.stats()).toEqual({ blocks: 1, bytes: a.bytes.byteLength });
  });

  it('a bad block in a batch is refused without disturbing what the batch staged', async () => {
    const good = rawBlock('good');
    const batch = store.createBatch();
    await batch.put(good.cid, good.bytes);
    await expect(batch.put(rawBlock('x').cid, good.bytes)).rejects.toBeInstanceOf(BadInputError);
    await batch.commit();
    expect((await store.stats()).blocks).toBe(1);
  });

  it('records created_at, refreshes it on re-upload, lists and deletes many', async () => {
    const blocks = Array.from({ length: 5 }, (_, i) => rawBlock(`block ${i}`));
    for (const block of blocks) await store.put(block.cid, block.bytes);
    const first = await collect(store.listBlocks());
    expect(first).toHaveLength(5);
    expect(new Set(first.map((row) => row.createdAt))).toEqual(new Set([1_700_000_000]));

    clock.advance(100);
    const again = blocks[0] as ReturnType<typeof rawBlock>;
    await store.put(again.cid, again.bytes);
    const touched = (await collect(store.listBlocks())).find((row) => Buffer.from(row.multihash).equals(again.cid.multihash.bytes));
    expect(touched?.createdAt).toBe(1_700_000_100);
    expect((await store.stats()).blocks).toBe(5);

    const removed = await store.deleteMultihashes(blocks.slice(0, 3).map((block) => block.cid.multihash.bytes));
    expect(removed).toBe(3);
    expect((await store.stats()).blocks).toBe(2);
    expect(await store.has((blocks[0] as ReturnType<typeof rawBlock>).cid)).toBe(false);
    expect(await store.has((blocks[4] as ReturnType<typeof rawBlock>).cid)).toBe(true);
  });

  it('never serves a collected block from its read cache', async () => {
    const block = rawBlock('hot small block');
    await store.put(block.cid, block.bytes);
    // Read twice: the second read is a cache hit, which no longer asks the index.
    expect(Buffer.from(await collectBytes(store.get(block.cid)))).toEqual(Buffer.from(block.bytes));
    expect(Buffer.from(await collectBytes(store.get(block.cid)))).toEqual(Buffer.from(block.bytes));
    expect(await store.deleteMultihashes([block.cid.multihash.bytes])).toBe(1);
    await expect(collectBytes(store.get(block.cid))).rejects.toBeInstanceOf(NotFoundError);
  });

  it('readBlockInto reads into the memory it is given and never caches it, so reusing that memory changes no later read', async () => {
    const block = rawBlock('a block read into a lent buffer');
    await store.put(block.cid, block.bytes);
    const lent: Uint8Array[] = [];
    const allocate = (length: number): Uint8Array => {
      const memory = new Uint8Array(length);
      lent.push(memory);
      return memory;
    };
    const bytes = await store.readBlockInto(block.cid, allocate);
    expect(lent).toHaveLength(1);
    expect(bytes).toBe(lent[0]);
    expect(Buffer.from(bytes)).toEqual(Buffer.from(block.bytes));
    bytes.fill(0);
    expect(Buffer.from(await collectBytes(store.get(block.cid)))).toEqual(Buffer.from(block.bytes));
    // Now the block is cached by get(): readBlockInto hands out the cached bytes and lends nothing.
    expect(Buffer.from(await store.readBlockInto(block.cid, allocate))).toEqual(Buffer.from(block.bytes));
    expect(lent).toHaveLength(1);
    await expect(store.readBlockInto(rawBlock('never stored').cid, allocate)).rejects.toBeInstanceOf(NotFoundError);
    expect(lent).toHaveLength(1);
  });

  it('with createdBefore, keeps blocks written since the cutoff', async () => {
    const old = rawBlock('old block');
    await store.put(old.cid, old.bytes);
    clock.advance(1000);
    const fresh = rawBlock('fresh block');
    await store.put(fresh.cid, fresh.bytes);
    const cutoff = Math.floor(clock.nowMs() / 1000) - 500;
    expect(await store.deleteMultihashes([old.cid.multihash.bytes, fresh.cid.multihash.bytes], { createdBefore: cutoff })).toBe(1);
    expect(await store.has(old.cid)).toBe(false);
    expect(await store.has(fresh.cid)).toBe(true);
  });

  it('does not delete a block that a batch in progress relies on', async () => {
    const block = rawBlock('leased');
    await store.put(block.cid, block.bytes);
    const batch = store.createBatch();
    await batch.put(block.cid, block.bytes);
    expect(await store.deleteMultihashes([block.cid.multihash.bytes])).toBe(0);
    await batch.commit();
    expect(await store.has(block.cid)).toBe(true);
    expect(await store.deleteMultihashes([block.cid.multihash.bytes])).toBe(1);
  });

  it('supports putMany, getMany, getAll and deleteMany of interface-blockstore', async () => {
    const blocks = Array.from({ length: 20 }, (_, i) => rawBlock(`many ${i}`));
    const put: CID[] = [];
    for await (const cid of store.putMany(blocks)) put.push(cid);
    expect(put).toHaveLength(20);
    let got = 0;
    for await (const pair of store.getMany(blocks.map((block) => block.cid))) {
      const expected = blocks.find((block) => block.cid.equals(pair.cid));
      expect(Buffer.from(await collectBytes(pair.bytes))).toEqual(Buffer.from(expected?.bytes ?? []));
      got++;
    }
    expect(got).toBe(20);
    let all = 0;
    for await (const pair of store.getAll()) {
      expect(pair.cid.code).toBe(raw.code);
      all++;
    }
    expect(all).toBe(20);
    const deleted: CID[] = [];
    for await (const cid of store.deleteMany(blocks.slice(0, 10).map((block) => block.cid))) deleted.push(cid);
    expect(deleted).toHaveLength(10);
    expect((await store.stats()).blocks).toBe(10);
  });

  it('heldBlock answers from the read cache only: undefined before a read, the bytes after, undefined once deleted', async () => {
    const block = rawBlock('held in memory');
    await store.put(block.cid, block.bytes);
    expect(store.heldBlock(block.cid)).toBeUndefined();
    await store.getBlock(block.cid);
    expect(Buffer.from(store.heldBlock(asDagPb(block.cid)) ?? [])).toEqual(Buffer.from(block.bytes));
    for await (const cid of store.deleteMany([block.cid])) expect(cid.equals(block.cid)).toBe(true);
    expect(store.heldBlock(block.cid)).toBeUndefined();
    await expect(store.getBlock(block.cid)).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('keeps blocks across close and reopen', async () => {
    const block = rawBlock('durable');
    await store.put(block.cid, block.bytes);
    await store.close();
    store = await openBlockstore(dir, undefined, { clock });
    expect(Buffer.from(await store.getBlock(block.cid)).toString()).toBe('durable');
  });

  it('rotates packs and compaction reclaims dead packs while live blocks stay readable', async () => {
    await store.close();
    store = await openBlockstore(dir, undefined, { clock, packSizeBytes: 4096 });
    const blocks = Array.from({ length: 40 }, (_, i) => rawBlock(Buffer.alloc(1000, i)));
    for (const block of blocks) await store.put(block.cid, block.bytes);
    const packsBefore = (await readdir(join(dir, 'packs'))).length;
    expect(packsBefore).toBeGreaterThan(5);
    // Leave one block in every fifth position alive.
    await store.deleteMultihashes(blocks.filter((_, i) => i % 5 !== 0).map((block) => block.cid.multihash.bytes));
    await store.close();
    store = await openBlockstore(dir, undefined, { clock, packSizeBytes: 4096 });
    const result = await store.compact();
    expect(result.packsCompacted).toBeGreaterThan(0);
    expect(result.bytesReclaimed).toBeGreaterThan(0);
    for (const [i, block] of blocks.entries()) {
      if (i % 5 === 0) expect(Buffer.from(await store.getBlock(block.cid))).toEqual(Buffer.from(block.bytes));
      else expect(await store.has(block.cid)).toBe(false);
    }
    expect(await store.stats()).toEqual({ blocks: 8, bytes: 8000 });
    const report = await store.checkIntegrity({ rehash: true });
    expect(report).toEqual({ checked: 8, problems: [] });
    let onDisk = 0;
    for (const name of await readdir(join(dir, 'packs'))) onDisk += (await stat(join(dir, 'packs', name))).size;
    expect(onDisk).toBeLessThan(40 * 1000);
  });

  it('uses a shared database when given one', async () => {
    const db = openDatabase(join(dir, 'shared.sqlite'));
    const shared = await openBlockstore(join(dir, 'shared'), sqliteStore(db), { clock });
    const block = rawBlock('shared db');
    await shared.put(block.cid, block.bytes);
    await shared.close();
    const row = db.prepare('SELECT length FROM blocks').get() as { length: number };
    expect(row.length).toBe(block.bytes.byteLength);
    db.close();
  });

  it("commits a batch's alongside records on the same transaction as its index rows, or neither", async () => {
    const db = openDatabase(join(dir, 'shared.sqlite'));
    const metadata = sqliteStore(db);
    const shared = await openBlockstore(join(dir, 'shared'), metadata, { clock });
    const refused = rawBlock('refused with its record');
    const failing = shared.createBatch();
    await failing.put(refused.cid, refused.bytes);
    const failure = failing.commit(async (tx) => {
      expect(tx.inTransaction).toBe(true);
      await tx.meta.setMetaValue('alongside', new Uint8Array([1]));
      throw new Error('injected: the record is refused');
    });
    await expect(failure).rejects.toThrow('injected');
    expect(await shared.has(refused.cid)).toBe(false);
    expect(await metadata.meta.metaValue('alongside')).toBeNull();

    const kept = rawBlock('kept with its record');
    const batch = shared.createBatch();
    await batch.put(kept.cid, kept.bytes);
    await batch.commit(async (tx) => tx.meta.setMetaValue('alongside', new Uint8Array([2])));
    expect(await shared.has(kept.cid)).toBe(true);
    expect([...((await metadata.meta.metaValue('alongside')) ?? [])]).toEqual([2]);
    await shared.close();
    db.close();
  });

  it('never lets GC delete a stored block that a batch found and counts on', async () => {
    const block = rawBlock('found by a batch');
    await store.put(block.cid, block.bytes);
    const batch = store.createBatch();
    // The batch asks the index whether the block is stored while GC deletes it: either the batch leased
    // it first (GC keeps it) or it learns the block is gone and writes it again.
    const staging = batch.put(block.cid, block.bytes);
    const removed = await store.deleteMultihashes([block.cid.multihash.bytes]);
    await staging;
    await batch.commit();
    expect(removed).toBe(0);
    expect(await store.has(block.cid)).toBe(true);
    expect(await store.deleteMultihashes([block.cid.multihash.bytes])).toBe(1);
  });

  it('concurrent puts all become durable together', async () => {
    const blocks = Array.from({ length: 50 }, (_, i) => rawBlock(`concurrent ${i}`));
    await Promise.all(blocks.map((block) => store.put(block.cid, block.bytes)));
    for (const block of blocks) expect(await store.has(block.cid)).toBe(true);
    expect((await store.stats()).blocks).toBe(50);
  });

  it('reads from more packs than it keeps open', async () => {
    await store.close();
    store = await openBlockstore(dir, undefined, { clock, packSizeBytes: 1 });
    const blocks = Array.from({ length: 150 }, (_, i) => rawBlock(`own pack ${i}`));
    for (const block of blocks) await store.put(block.cid, block.bytes);
    expect((await readdir(join(dir, 'packs'))).length).toBeGreaterThanOrEqual(150);
    for (let round = 0; round < 2; round++) {
      for (const block of blocks) expect(Buffer.from(await store.getBlock(block.cid))).toEqual(Buffer.from(block.bytes));
    }
  });

  it('refuses blocks above the size limit', async () => {
    await store.close();
    store = await openBlockstore(dir, undefined, { clock, maxBlockBytes: 100 });
    const block = rawBlock(Buffer.alloc(101));
    await expect(store.put(block.cid, block.bytes)).rejects.toBeInstanceOf(BadInputError);
    expect((await store.stats()).blocks).toBe(0);
  });
});
