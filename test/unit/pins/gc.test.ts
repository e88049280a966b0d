import { CID } from 'multiformats/cid';
import { afterEach, describe, expect, it } from 'vitest';
import { collectGarbage, type GcStore } from '../../../main/pins/gc.js';
import { addPin, removePin } from '../../../main/pins/pins.js';
import { createPinsKit, storeDag, type PinsKit } from './pins-kit.js';
import { UnreadableDagError } from '../../../main/pins/gc-content-store.js';
import { brokenDagPb, deepCborLinking } from '../../helpers/unreadable-blocks.js';
import { rawBlock } from '../../helpers/raw-blocks.js';

let kit: PinsKit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

class SimulatedCrash extends Error {}

/** A GC store whose first delete removes only part of its batch and then "dies", as a kill -9 mid-sweep would. */
function crashingAfterFirstDelete(inner: GcStore): GcStore & { deleted: number } {
  const store = {
    deleted: 0,
    mark: inner.mark.bind(inner),
    storedBlocks: inner.storedBlocks.bind(inner),
    compact: inner.compact.bind(inner),
    async deleteMultihashes(multihashes: Uint8Array[], createdBefore: number): Promise<number> {
      store.deleted += await inner.deleteMultihashes(multihashes.slice(0, Math.ceil(multihashes.length / 2)), createdBefore);
      throw new SimulatedCrash('killed during the sweep');
    },
  };
  return store;
}

describe('garbage collection ordering (contract section 6)', () => {
  it('a crash after the first delete batch leaves no pin claiming a deleted block; counters stay exact; the next cycle finishes', async () => {
    kit = await createPinsKit();
    const { ctx, blocks, accountId } = kit;
    const leaving = await storeDag(blocks, 'leaving', 6);
    const kept = await storeDag(blocks, 'kept', 3);
    expect((await addPin(ctx, accountId, leaving.root)).status).toBe('pinned');
    expect((await addPin(ctx, accountId, kept.root)).status).toBe('pinned');
    await removePin(ctx, accountId, leaving.root);
    expect(await kit.usage()).toEqual({ pinnedCount: 2, pinnedBytes: leaving.bytes + kept.bytes });
    kit.clock.set(kit.clock.nowMs() + 60_000);

    const crashing = crashingAfterFirstDelete(kit.gcStore);
    await expect(collectGarbage(ctx, crashing, 10)).rejects.toBeInstanceOf(SimulatedCrash);
    expect(crashing.deleted).toBeGreaterThan(0);
    expect((await ctx.content.census(leaving.root)).missing).toBeGreaterThan(0);

    // Every pin left claims a whole DAG; the one that was leaving is gone with its counters.
    for (const status of ['pinned', 'unpinning'] as const) {
      for (const pin of await ctx.accounts.store.pins.pinsWithStatus(status)) {
        expect((await ctx.content.census(CID.parse(pin.cid))).missing, `${status} pin ${pin.cid}`).toBe(0);
      }
    }
    expect(await ctx.accounts.store.pins.pinsWithStatus('unpinning')).toEqual([]);
    expect(await kit.usage()).toEqual({ pinnedCount: 1, pinnedBytes: kept.bytes });
    // Pinning the half-deleted DAG again waits for its blocks instead of claiming them.
    expect(await addPin(ctx, accountId, leaving.root)).toMatchObject({ status: 'pinning', size: 0 });
    await removePin(ctx, accountId, leaving.root);

    const result = await collectGarbage(ctx, kit.gcStore, 10);
    expect(result.pinsRemoved).toBe(1);
    expect(result.blocksDeleted + crashing.deleted).toBe(7);
    expect((await ctx.content.census(kept.root)).missing).toBe(0);
    expect(await kit.usage()).toEqual({ pinnedCount: 1, pinnedBytes: kept.bytes });
  });

  it('a pin removed while a cycle marks stays `unpinning` with its blocks until the next cycle', async () => {
    kit = await createPinsKit();
    const { ctx, blocks, accountId } = kit;
    const dag = await storeDag(blocks, 'late', 4);
    expect((await addPin(ctx, accountId, dag.root)).status).toBe('pinned');
    kit.clock.set(kit.clock.nowMs() + 60_000);
    const removingWhileMarking: GcStore = {
      ...kit.gcStore,
      mark: async (root, visit, signal) => {
        await removePin(ctx, accountId, dag.root);
        await kit?.gcStore.mark(root, visit, signal);
      },
    };
    expect(await collectGarbage(ctx, removingWhileMarking, 10)).toMatchObject({ pinsRemoved: 0, blocksDeleted: 0 });
    expect((await ctx.accounts.store.pins.pinsWithStatus('unpinning')).map((pin) => pin.cid)).toEqual([dag.root.toString()]);
    expect((await ctx.content.census(dag.root)).missing).toBe(0);
    expect(await collectGarbage(ctx, kit.gcStore, 10)).toMatchObject({ pinsRemoved: 1, blocksDeleted: 5 });
    expect(await kit.usage()).toEqual({ pinnedCount: 0, pinnedBytes: 0 });
  });
});

describe('garbage collection and blocks whose links cannot be read', () => {
  it('a pinned block GC cannot follow stops the cycle before its sweep: nothing is deleted, the error names the block', async () => {
    kit = await createPinsKit();
    const { ctx, blocks, accountId } = kit;
    const below = rawBlock('reached only through a block nobody can read');
    const garbage = rawBlock('unpinned garbage');
    const deep = await deepCborLinking(below.cid, 100_000);
    for (const block of [below, garbage, deep]) await blocks.put(block.cid, block.bytes);
    // A pin completed before such blocks were refused at import (its census given, as a folder operation gives it).
    expect((await addPin(ctx, accountId, deep.cid, { census: { bytes: deep.bytes.byteLength + below.bytes.byteLength, missing: 0 } })).status).toBe('pinned');
    kit.clock.set(kit.clock.nowMs() + 60_000);

    const cycle = collectGarbage(ctx, kit.gcStore, 10);
    await expect(cycle).rejects.toBeInstanceOf(UnreadableDagError);
    await expect(cycle).rejects.toThrow(
      `block ${deep.cid.toString()} under pin ${deep.cid.toString()} cannot be read under its codec (it nests deeper than 512 levels)`,
    );
    for (const block of [below, garbage, deep]) expect(await blocks.has(block.cid), block.cid.toString()).toBe(true);
    expect((await kit.usage()).pinnedCount).toBe(1);
  });

  it('the pin census does not count such a DAG complete: a new pin on it waits for blocks instead', async () => {
    kit = await createPinsKit();
    const { ctx, blocks, accountId } = kit;
    const below = rawBlock('below a broken node');
    const deep = await deepCborLinking(below.cid, 100_000);
    const broken = await brokenDagPb();
    for (const block of [below, deep, broken]) await blocks.put(block.cid, block.bytes);
    expect(await addPin(ctx, accountId, deep.cid)).toMatchObject({ status: 'pinning', size: 0 });
    expect(await addPin(ctx, accountId, broken.cid)).toMatchObject({ status: 'pinning', size: 0 });
    expect(await kit.usage()).toEqual({ pinnedCount: 2, pinnedBytes: 0 });
  });
});
