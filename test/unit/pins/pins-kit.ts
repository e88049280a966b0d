import type { Db } from '../../../main/store/db/database.js';
import { join } from 'node:path';
import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import { createOwner } from '../../../main/accounts/accounts.js';
import { contentCensus } from '../../../main/pins/content-census.js';
import { contentGcStore } from '../../../main/pins/gc-content-store.js';
import { createReadWriteLock } from '../../../main/base/read-write-lock.js';
import type { PinsContext } from '../../../main/pins/context.js';
import type { GcStore } from '../../../main/pins/gc.js';
import { openBlockstore, type PinfoldBlockstore } from '../../../main/store/blockstore/blockstore.js';
import { accountsFixture } from '../accounts/accounts-fixture.js';
import { manualClock, type ManualClock } from '../../helpers/manual-clock.js';
import { rawBlock, sha256Digest } from '../../helpers/raw-blocks.js';

/** The pins domain over real parts: a SQLite file, a pack blockstore, the server's GC view, a clock moved by hand. */
export interface PinsKit {
  ctx: PinsContext;
  /** The SQLite connection under the store, for tests that set rows up by hand. */
  db: Db;
  blocks: PinfoldBlockstore;
  gcStore: GcStore;
  clock: ManualClock;
  accountId: number;
  usage(): Promise<{ pinnedCount: number; pinnedBytes: number }>;
  close(): Promise<void>;
}

export async function createPinsKit(): Promise<PinsKit> {
  const clock = manualClock(Date.UTC(2027, 0, 1));
  const fx = accountsFixture(clock);
  const blocks = await openBlockstore(join(fx.dir, 'blocks'), fx.ctx.store, { clock });
  const ctx: PinsContext = {
    accounts: fx.ctx,
    content: contentCensus(blocks),
    pinTimeoutSeconds: 600,
    gcLock: createReadWriteLock(),
  };
  const accountId = (await createOwner(fx.ctx)).id;
  return {
    ctx,
    db: fx.db,
    blocks,
    gcStore: await contentGcStore(blocks),
    clock,
    accountId,
    usage: async () => {
      const row = await fx.ctx.store.usage.usageOf(accountId);
      return { pinnedCount: row.pinnedCount, pinnedBytes: row.pinnedBytes };
    },
    async close() {
      await blocks.close();
      fx.close();
    },
  };
}

/** A dag-pb node over `count` distinct raw leaves, all stored; answers the root and the bytes of the DAG. */
export async function storeDag(blocks: PinfoldBlockstore, label: string, count: number): Promise<{ root: CID; bytes: number }> {
  const leaves = Array.from({ length: count }, (_, i) => rawBlock(`${label} leaf ${i}`));
  for (const leaf of leaves) await blocks.put(leaf.cid, leaf.bytes);
  const node = dagPb.encode(dagPb.prepare({ Links: leaves.map((leaf, i) => ({ Hash: leaf.cid, Name: `${i}`, Tsize: leaf.bytes.byteLength })) }));
  const root = CID.createV1(dagPb.code, sha256Digest(node));
  await blocks.put(root, node);
  return { root, bytes: node.byteLength + leaves.reduce((sum, leaf) => sum + leaf.bytes.byteLength, 0) };
}
