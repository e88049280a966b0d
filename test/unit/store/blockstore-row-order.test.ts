import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../main/store/db/database.js';
import { sqliteStore } from '../../../main/store/db/sqlite-store.js';
import { openBlockstore, type BlockIndexStore, type PinfoldBlockstore } from '../../../main/store/blockstore/blockstore.js';
import type { BlockIndexRepository } from '../../../main/store/repositories/block-index.js';
import type { Transaction } from '../../../main/store/repositories/index.js';
import { rawBlock } from '../../helpers/raw-blocks.js';
import { tempDir } from '../../helpers/temp-dirs.js';

/**
 * Every transaction of the block store that locks several rows locks them in one order: blocks by
 * multihash bytes, then packs by id (main/store/row-order.ts). On PostgreSQL two transactions that lock
 * the same rows in different orders deadlock, and one fails: an upload's commit beside a GC sweep.
 */
type Call = { method: string; key: string };

function recording(store: BlockIndexStore, calls: Call[]): BlockIndexStore {
  const keyOf = (args: unknown[]): string => {
    const first = args[0];
    if (first instanceof Uint8Array) return Buffer.from(first).toString('hex');
    if (typeof first === 'number') return String(first);
    if (first !== null && typeof first === 'object' && 'multihash' in first) return Buffer.from((first as { multihash: Uint8Array }).multihash).toString('hex');
    return '';
  };
  const watched = (index: BlockIndexRepository): BlockIndexRepository =>
    new Proxy(index, {
      get(target, name, receiver) {
        const value: unknown = Reflect.get(target, name, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls.push({ method: String(name), key: keyOf(args) });
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  return {
    blockIndex: store.blockIndex,
    current: store.current,
    transaction: <T>(work: (tx: Transaction) => Promise<T>) => store.transaction(async (tx) => work({ ...tx, blockIndex: watched(tx.blockIndex) })),
  };
}

/** The keys of `method`'s calls, in the order they were made. */
function keysOf(calls: readonly Call[], methods: readonly string[]): string[] {
  return calls.filter((call) => methods.includes(call.method)).map((call) => call.key);
}

const ascendingHex = (keys: readonly string[]): string[] => [...keys].sort();
const ascendingIds = (keys: readonly string[]): string[] => [...keys].sort((a, b) => Number(a) - Number(b));

describe('the block store locks rows in one order', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let db: Db;
  let blocks: PinfoldBlockstore;
  const calls: Call[] = [];

  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
    db = openDatabase(join(dir, 'index.sqlite'));
    // Small packs: the blocks of one batch land in several, so pack order is tested too.
    blocks = await openBlockstore(join(dir, 'blocks'), recording(sqliteStore(db), calls), { packSizeBytes: 2048 });
    calls.length = 0;
  });

  afterEach(async () => {
    await blocks.close();
    db.close();
    await cleanup();
  });

  const many = Array.from({ length: 40 }, (_, i) => rawBlock(`block ${i} ${'x'.repeat(200)}`));
  // Put in descending multihash order: the order the store must not keep.
  const descending = [...many].sort((a, b) => Buffer.compare(b.cid.multihash.bytes, a.cid.multihash.bytes));

  it('a batch indexes and touches its blocks in multihash order, then its packs in id order', async () => {
    const first = blocks.createBatch();
    for (const block of descending.slice(0, 20)) await first.put(block.cid, block.bytes);
    await first.commit();
    calls.length = 0;
    // The second batch stores twenty new blocks and meets twenty stored ones (kept: touched at commit).
    const second = blocks.createBatch();
    for (const block of descending) await second.put(block.cid, block.bytes);
    await second.commit();
    const inserts = keysOf(calls, ['insertBlockIfAbsent']);
    expect(inserts).toHaveLength(20);
    expect(inserts).toEqual(ascendingHex(inserts));
    const touches = keysOf(calls, ['touchBlock']);
    expect(touches).toEqual(ascendingHex(touches));
    const packs = keysOf(calls, ['addPackLive']);
    expect(packs.length).toBeGreaterThan(1);
    expect(packs).toEqual(ascendingIds(packs));
  });

  it('a sweep deletes in multihash order, then moves its packs’ counts in id order', async () => {
    for (const block of many) await blocks.put(block.cid, block.bytes);
    calls.length = 0;
    expect(await blocks.deleteMultihashes(descending.map((block) => block.cid.multihash.bytes))).toBe(many.length);
    const deletes = keysOf(calls, ['deleteBlockRow']);
    expect(deletes).toHaveLength(many.length);
    expect(deletes).toEqual(ascendingHex(deletes));
    const packs = keysOf(calls, ['addPackLive']);
    expect(packs.length).toBeGreaterThan(1);
    expect(packs).toEqual(ascendingIds(packs));
  });
});
