import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PgBound } from '../../../main/store/pg/bind.js';
import type { PG_QUERY_MODULES } from '../../../main/store/pg/modules.js';
import type { BlockIndexRepository } from '../../../main/store/repositories/block-index.js';
import { REPOSITORY_ENGINES, repository, type EngineDatabase } from '../../helpers/repository-engines.js';

// The PostgreSQL module, bound, is a BlockIndexRepository (tsc checks this line).
const pgMatches: PgBound<(typeof PG_QUERY_MODULES)['blockIndex']> extends BlockIndexRepository ? true : never = true;
void pgMatches;

const mh = (...bytes: number[]): Uint8Array => new Uint8Array([0x12, 0x20, ...bytes]);

describe.each(REPOSITORY_ENGINES.map((make) => [make().name, make] as const))('BlockIndexRepository on %s', (_name, make) => {
  const engine = make();
  let database: EngineDatabase;
  let blocks: BlockIndexRepository;
  beforeAll(() => engine.start());
  afterAll(() => engine.stop());
  beforeEach(async () => {
    database = await engine.open();
    blocks = repository(database, 'blockIndex');
  });
  afterEach(() => database.close());

  it('indexes a block once, finds it, and answers undefined/false for one never indexed', async () => {
    const pack = await blocks.createPack(100);
    expect(await blocks.findBlock(mh(1))).toBeUndefined();
    expect(await blocks.blockExists(mh(1))).toBe(false);
    expect(await blocks.insertBlockIfAbsent({ multihash: mh(1), packId: pack, offset: 8, length: 300, createdAt: 1000 })).toBe(true);
    expect(await blocks.insertBlockIfAbsent({ multihash: mh(1), packId: pack, offset: 999, length: 1, createdAt: 2000 })).toBe(false);
    expect(await blocks.findBlock(mh(1))).toEqual({ packId: pack, offset: 8, length: 300, createdAt: 1000 });
    expect(await blocks.blockExists(mh(1))).toBe(true);
    // A view into a larger buffer is the same key.
    const wide = new Uint8Array([7, 7, ...mh(1), 7]);
    expect(await blocks.blockExists(wide.subarray(2, 2 + mh(1).length))).toBe(true);
    expect(await blocks.findBlock(mh(2))).toBeUndefined();
  });

  it('touches created_at forward only, and answers false for a block not indexed', async () => {
    await blocks.insertBlockIfAbsent({ multihash: mh(1), packId: 1, offset: 0, length: 10, createdAt: 1000 });
    expect(await blocks.touchBlock(mh(1), 500)).toBe(true);
    expect((await blocks.findBlock(mh(1)))?.createdAt).toBe(1000);
    expect(await blocks.touchBlock(mh(1), 2000)).toBe(true);
    expect((await blocks.findBlock(mh(1)))?.createdAt).toBe(2000);
    expect(await blocks.touchBlock(mh(9), 3000)).toBe(false);
  });

  it('indexes many blocks at once: new rows inserted, an indexed one keeps its place and has created_at moved forward only', async () => {
    const pack = await blocks.createPack(100);
    await blocks.insertBlockIfAbsent({ multihash: mh(1), packId: pack, offset: 0, length: 10, createdAt: 1000 });
    await blocks.insertBlockIfAbsent({ multihash: mh(2), packId: pack, offset: 10, length: 10, createdAt: 5000 });
    const other = await blocks.createPack(200);
    const rows = [1, 2, 3].map((n) => ({ multihash: mh(n), packId: other, offset: n * 100, length: 10, createdAt: 2000 }));
    expect(await blocks.indexBlocks(rows)).toEqual([false, false, true]);
    expect(await blocks.findBlock(mh(1))).toEqual({ packId: pack, offset: 0, length: 10, createdAt: 2000 });
    expect(await blocks.findBlock(mh(2))).toEqual({ packId: pack, offset: 10, length: 10, createdAt: 5000 });
    expect(await blocks.findBlock(mh(3))).toEqual({ packId: other, offset: 300, length: 10, createdAt: 2000 });
    expect(await blocks.indexBlocks([])).toEqual([]);
  });

  it('indexes more blocks than one statement takes, answering each in order', async () => {
    const pack = await blocks.createPack(100);
    const many = Array.from({ length: 1203 }, (_, i) => new Uint8Array([0x12, 0x20, ...new Uint8Array(new Uint32Array([i, i * 7, 3, 4, 5, 6, 7, 8]).buffer)]));
    // Every third one is indexed already, at another place.
    for (let i = 0; i < many.length; i += 3)
      await blocks.insertBlockIfAbsent({ multihash: many[i] as Uint8Array, packId: pack, offset: i, length: 1, createdAt: 1 });
    const other = await blocks.createPack(200);
    const answer = await blocks.indexBlocks(many.map((multihash, i) => ({ multihash, packId: other, offset: i * 2, length: 2, createdAt: 9 })));
    expect(answer).toEqual(many.map((_, i) => i % 3 !== 0));
    expect(await blocks.findBlock(many[600] as Uint8Array)).toEqual({ packId: pack, offset: 600, length: 1, createdAt: 9 });
    expect(await blocks.findBlock(many[1202] as Uint8Array)).toEqual({ packId: other, offset: 2404, length: 2, createdAt: 9 });
  });

  it('deletes a row and answers where its bytes were; createdBefore spares a newer row', async () => {
    await blocks.insertBlockIfAbsent({ multihash: mh(1), packId: 3, offset: 0, length: 10, createdAt: 1000 });
    await blocks.insertBlockIfAbsent({ multihash: mh(2), packId: 4, offset: 10, length: 20, createdAt: 1000 });
    expect(await blocks.deleteBlockRow(mh(1), 1000)).toBeUndefined();
    expect(await blocks.blockExists(mh(1))).toBe(true);
    expect(await blocks.deleteBlockRow(mh(1), 1001)).toEqual({ packId: 3, length: 10 });
    expect(await blocks.blockExists(mh(1))).toBe(false);
    expect(await blocks.deleteBlockRow(mh(2))).toEqual({ packId: 4, length: 20 });
    expect(await blocks.deleteBlockRow(mh(2))).toBeUndefined();
  });

  it('pages the index in bytewise multihash order (shorter prefix first, high bytes last)', async () => {
    const keys = [new Uint8Array([0xff]), new Uint8Array([0x01, 0x00]), new Uint8Array([0x01]), new Uint8Array([0x80, 0x01]), new Uint8Array([0x00])];
    for (const [i, key] of keys.entries()) await blocks.insertBlockIfAbsent({ multihash: key, packId: 1, offset: i * 10, length: i + 1, createdAt: 100 + i });
    const first = await blocks.listBlocksAfter(undefined, 2);
    expect(first).toEqual([
      { multihash: new Uint8Array([0x00]), length: 5, createdAt: 104 },
      { multihash: new Uint8Array([0x01]), length: 3, createdAt: 102 },
    ]);
    expect(first[0]?.multihash).toBeInstanceOf(Uint8Array);
    const rest = await blocks.listBlocksAfter(first[1]?.multihash, 10);
    expect(rest.map((r) => [...r.multihash])).toEqual([[0x01, 0x00], [0x80, 0x01], [0xff]]);
    expect(await blocks.listBlocksAfter(new Uint8Array([0xff]), 10)).toEqual([]);
    expect(await blocks.listBlocksAfter(undefined, 0)).toEqual([]);
  });

  it("lists a pack's blocks in offset order, and relocates a block only from where it was read", async () => {
    const a = await blocks.createPack(1);
    const b = await blocks.createPack(2);
    expect(b).toBeGreaterThan(a);
    await blocks.insertBlockIfAbsent({ multihash: mh(3), packId: a, offset: 200, length: 5, createdAt: 1 });
    await blocks.insertBlockIfAbsent({ multihash: mh(1), packId: a, offset: 0, length: 100, createdAt: 1 });
    await blocks.insertBlockIfAbsent({ multihash: mh(2), packId: b, offset: 0, length: 7, createdAt: 1 });
    expect(await blocks.listPackBlocks(a)).toEqual([
      { multihash: mh(1), offset: 0, length: 100 },
      { multihash: mh(3), offset: 200, length: 5 },
    ]);
    expect(await blocks.listPackBlocks(999)).toEqual([]);
    expect(await blocks.relocateBlock(mh(3), { packId: a, offset: 100 }, { packId: b, offset: 7 })).toBe(false);
    expect(await blocks.relocateBlock(mh(3), { packId: a, offset: 200 }, { packId: b, offset: 7 })).toBe(true);
    expect(await blocks.findBlock(mh(3))).toEqual({ packId: b, offset: 7, length: 5, createdAt: 1 });
    expect(await blocks.relocateBlock(mh(3), { packId: a, offset: 200 }, { packId: b, offset: 99 })).toBe(false);
    expect(await blocks.relocateBlock(mh(9), { packId: a, offset: 0 }, { packId: b, offset: 0 })).toBe(false);
  });

  it('keeps pack rows: live counters add (past 2^32), seal one or all, records, delete, list by id', async () => {
    expect(await blocks.listPacks()).toEqual([]);
    expect(await blocks.totalLiveBytes()).toEqual({ bytes: 0, blocks: 0 });
    const a = await blocks.createPack(10);
    const b = await blocks.createPack(20);
    const c = await blocks.createPack(30);
    expect(await blocks.findPack(a)).toEqual({ id: a, liveBytes: 0, liveBlocks: 0, sealed: false, createdAt: 10 });
    expect(await blocks.findPack(999)).toBeUndefined();
    const big = 6_000_000_000;
    await blocks.addPackLive(a, big, 2);
    await blocks.addPackLive(a, 100, 1);
    await blocks.addPackLive(a, -50, -1);
    await blocks.addPackLive(b, 7, 1);
    await blocks.addPackLive(999, 7, 1);
    await Promise.all(Array.from({ length: 20 }, () => blocks.addPackLive(c, 3, 1)));
    expect(await blocks.findPack(a)).toEqual({ id: a, liveBytes: big + 50, liveBlocks: 2, sealed: false, createdAt: 10 });
    expect(await blocks.findPack(c)).toMatchObject({ liveBytes: 60, liveBlocks: 20 });
    expect(await blocks.totalLiveBytes()).toEqual({ bytes: big + 50 + 7 + 60, blocks: 23 });
    await blocks.sealPack(b);
    expect((await blocks.listPacks()).map((p) => [p.id, p.sealed])).toEqual([
      [a, false],
      [b, true],
      [c, false],
    ]);
    await blocks.sealAllPacks();
    expect((await blocks.listPacks()).every((p) => p.sealed)).toBe(true);
    await blocks.deletePackRow(b);
    await blocks.deletePackRow(999);
    expect((await blocks.listPacks()).map((p) => p.id)).toEqual([a, c]);
  });

  it('heart-beats packs: created_at moves forward only, on the packs named and no other', async () => {
    const a = await blocks.createPack(100);
    const b = await blocks.createPack(100);
    const c = await blocks.createPack(500);
    await blocks.touchPacks([a, c, 999], 300);
    await blocks.touchPacks([], 900);
    expect((await blocks.listPacks()).map((p) => [p.id, p.createdAt])).toEqual([
      [a, 300],
      [b, 100],
      [c, 500],
    ]);
  });

  it("answers a pack's records: blocks, their bytes, multihash bytes and the end of the last one", async () => {
    expect(await blocks.packRecords(1)).toEqual({ blocks: 0, blockBytes: 0, multihashBytes: 0, end: 0 });
    await blocks.insertBlockIfAbsent({ multihash: mh(1), packId: 1, offset: 0, length: 100, createdAt: 1 });
    await blocks.insertBlockIfAbsent({ multihash: mh(2, 2), packId: 1, offset: 5_000_000_000, length: 40, createdAt: 1 });
    await blocks.insertBlockIfAbsent({ multihash: mh(3), packId: 2, offset: 0, length: 1, createdAt: 1 });
    expect(await blocks.packRecords(1)).toEqual({ blocks: 2, blockBytes: 140, multihashBytes: 3 + 4, end: 5_000_000_040 });
  });
});
