import type { ReadWriteLock } from '../base/lock.js';
import { composeReadWriteLocks, createReadWriteLock } from '../base/read-write-lock.js';
import type { AccountsContext } from '../accounts/context.js';
import { createNetworkFetcher, type NetworkFetcher } from '../network/network-fetcher.js';
import { createRoutingClient, type ClosableRoutingClient } from '../network/routing-client.js';
import { contentGcStore } from '../pins/gc-content-store.js';
import type { GcStore } from '../pins/gc.js';
import { openBlockStore, type BlockStore } from './block-store.js';
import type { Storage } from './open-storage.js';
import type { StartContext } from './start-context.js';

/** The blocks, the lock GC takes over them, and where missing blocks come from. */
export interface ContentPart {
  blocks: BlockStore;
  /** Exclusive for a GC cycle; shared by what must not lose blocks meanwhile (pin changes, a sync batch). */
  gcLock: ReadWriteLock;
  gcStore: GcStore;
  routing: ClosableRoutingClient;
  fetcher: NetworkFetcher;
}

/** Opens the block store and the IPFS network over HTTP (contract section 11) as the live settings say. */
export async function openContent(start: StartContext, storage: Storage, accounts: AccountsContext): Promise<ContentPart> {
  const { config, clock, logger, stack } = start;
  const { coordination, engine } = storage.metadata;
  // Across instances too with `--db`: this process's queue first, then the database's advisory lock.
  const gcLock = coordination ? composeReadWriteLocks(createReadWriteLock(), coordination.gcLock) : createReadWriteLock();
  const blocks = await openBlockStore(config, { localDir: storage.paths.blocks, index: accounts.store, metadataEngine: engine, clock, logger });
  // Closed under the GC lock, held exclusively: a GC cycle, a pin change or a sync batch still under way
  // (each holds it) finishes first. Registered after the metadata store, which the block index lives in.
  stack.defer(() => gcLock.exclusive(async () => blocks.close()));
  await start.started('block-store');

  const gcStore = await contentGcStore(blocks);
  // Offline: nothing leaves this machine. Every part that fetches starts after these, so closes before them.
  const routing = stack.use(createRoutingClient({ settings: storage.network, logger }));
  const tuning = start.init.fetchTuning;
  const fetcher = stack.use(createNetworkFetcher({ settings: storage.network, routing, blocks, logger, ...(tuning ? { tuning } : {}) }));
  await start.started('network-client');
  return { blocks, gcLock, gcStore, routing, fetcher };
}
