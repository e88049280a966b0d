import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../main/base/errors.js';
import { getBlock } from '../../../main/content/read/blocks.js';
import { readThroughBlocks } from '../../../main/network/read-through-blocks.js';
import { openBlockstore, type PinfoldBlockstore } from '../../../main/store/blockstore/blockstore.js';
import { rawBlock } from '../../helpers/raw-blocks.js';
import { tempDir } from '../../helpers/temp-dirs.js';
import { deferred } from '../../helpers/deferred.js';

describe('readThroughBlocks: the blocks of a name held elsewhere (contract section 11)', () => {
  let store: PinfoldBlockstore;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    const temp = await tempDir('pinfold-read-through-');
    cleanup = temp.cleanup;
    store = await openBlockstore(temp.dir);
  });
  afterEach(async () => {
    await store.close();
    await cleanup();
  });

  it('reads a held block from the store without fetching, and fetches, stores and serves a missing one once', async () => {
    const held = rawBlock('held here');
    const missing = rawBlock('only on the network');
    const batch = store.createBatch();
    await batch.put(held.cid, held.bytes);
    await batch.commit();
    const fetched: string[] = [];
    const through = readThroughBlocks(store, async (cid) => {
      fetched.push(cid.toString());
      await new Promise((resolve) => setTimeout(resolve, 10));
      return missing.bytes;
    });

    expect(Buffer.from(await getBlock(through, held.cid)).equals(held.bytes)).toBe(true);
    expect(fetched).toEqual([]);
    expect(await through.has(missing.cid)).toBe(false);
    // Two readers at once (one into a pooled buffer): one fetch.
    const [a, b] = await Promise.all([getBlock(through, missing.cid), getBlock(through, missing.cid, { allocate: (n) => new Uint8Array(n) })]);
    expect(Buffer.from(a).equals(missing.bytes)).toBe(true);
    expect(Buffer.from(b).equals(missing.bytes)).toBe(true);
    expect(fetched).toEqual([missing.cid.toString()]);
    // Stored, unpinned: the store has it now, and a later read fetches nothing.
    expect(await store.has(missing.cid)).toBe(true);
    expect(Buffer.from(await getBlock(through, missing.cid)).equals(missing.bytes)).toBe(true);
    expect(fetched).toHaveLength(1);
    expect(through.removals).toBe(store.removals);
  });

  it('answers 404 when no source has the block, and never stores bytes that are not the block', async () => {
    const wanted = rawBlock('wanted');
    const failing = readThroughBlocks(store, async () => {
      throw new Error('no source has it');
    });
    await expect(getBlock(failing, wanted.cid)).rejects.toBeInstanceOf(NotFoundError);
    const lying = readThroughBlocks(store, async () => new TextEncoder().encode('something else'));
    await expect(getBlock(lying, wanted.cid)).rejects.toThrow();
    expect(await store.has(wanted.cid)).toBe(false);
  });

  it('lets a reader leave without cancelling the fetch the others wait for', async () => {
    const block = rawBlock('slow');
    const gate = deferred();
    const through = readThroughBlocks(store, async () => {
      await gate.promise;
      return block.bytes;
    });
    const controller = new AbortController();
    const leaving = getBlock(through, block.cid, { signal: controller.signal });
    const staying = getBlock(through, block.cid);
    controller.abort(new Error('client went away'));
    await expect(leaving).rejects.toThrow('client went away');
    gate.resolve();
    expect(Buffer.from(await staying).equals(block.bytes)).toBe(true);
  });
});
