import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openBlockstore, type BlockIndexStore, type PinfoldBlockstore } from '../../../main/store/blockstore/blockstore.js';
import type { Transaction } from '../../../main/store/repositories/index.js';
import { REPOSITORY_ENGINES, type EngineDatabase } from '../../helpers/repository-engines.js';
import { deferred } from '../../helpers/deferred.js';
import { rawBlock } from '../../helpers/raw-blocks.js';
import { tempDir } from '../../helpers/temp-dirs.js';

/**
 * A GC sweep beside an upload that reuses a block, on each engine's block index: the upload leases the
 * block before asking whether it is stored, and the sweep skips leased blocks. On PostgreSQL a read does
 * not wait for the sweep's open transaction, so an upload that leased after the sweep read the leases
 * was told "stored" and counted on a block the sweep then deleted (issue 16's suite: a pin left
 * `pinning`, its DAG incomplete). The store's transactions are held open here at the sweep's delete.
 */
describe.each(REPOSITORY_ENGINES.map((make) => [make().name, make] as const))('a GC sweep beside an upload on %s', (_name, make) => {
  const engine = make();
  let database: EngineDatabase;
  let blockstore: PinfoldBlockstore;
  let cleanup: () => Promise<void>;
  /** The sweep's delete waits here, its rows deleted and not yet committed. */
  let gate = deferred();
  let deleting = deferred();
  beforeAll(() => engine.start());
  afterAll(() => engine.stop());
  beforeEach(async () => {
    gate = deferred();
    deleting = deferred();
    database = await engine.open();
    const { store } = database;
    const holdAtDelete = (tx: Transaction): Transaction => ({
      ...tx,
      blockIndex: {
        ...tx.blockIndex,
        deleteBlockRow: async (...args) => {
          const row = await tx.blockIndex.deleteBlockRow(...args);
          deleting.resolve();
          await gate.promise;
          return row;
        },
      },
    });
    const held: BlockIndexStore = {
      blockIndex: store.blockIndex,
      current: store.current,
      transaction: (work) => store.transaction((tx) => work(holdAtDelete(tx))),
    };
    const folder = await tempDir();
    cleanup = folder.cleanup;
    blockstore = await openBlockstore(folder.dir, held, { exclusive: true });
  });
  afterEach(async () => {
    gate.resolve();
    await blockstore.close();
    await database.close();
    await cleanup();
  });

  it('an upload that leases a block after the sweep read the leases stores it again: the block survives', async () => {
    const block = rawBlock('reused by an upload while GC deletes it');
    await blockstore.put(block.cid, block.bytes);
    const sweep = blockstore.deleteMultihashes([block.cid.multihash.bytes], { createdBefore: Number.MAX_SAFE_INTEGER });
    await deleting.promise;

    const batch = blockstore.createBatch();
    const staged = batch.put(block.cid, block.bytes);
    gate.resolve();
    expect(await sweep).toBe(1);
    await staged;
    await batch.commit();

    expect(await blockstore.has(block.cid)).toBe(true);
    expect(Buffer.from(await blockstore.getBlock(block.cid)).equals(Buffer.from(block.bytes))).toBe(true);
  });
});
