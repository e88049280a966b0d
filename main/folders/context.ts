import type { Clock } from '../base/clock.js';
import {
  createShardCache,
  DEFAULT_LAYOUT,
  type DirectoryBlockstore,
  type DirectoryLayout,
  type DirectoryStats,
  type ShardCache,
} from '../content/directory/index.js';
import type { Store } from '../store/repositories/index.js';
import type { FolderPins } from './folder-pins.js';

/** What the folders domain needs, passed in by the composition root. */
export interface FoldersContext {
  store: Store;
  blockstore: DirectoryBlockstore;
  pins: FolderPins;
  clock: Clock;
  /** Decoded HAMT shards shared by every operation (hot shards near the roots stay decoded). */
  shardCache: ShardCache;
  /** The layout an edit writes now: the service's CID profile may change while it runs (docs/settings.md). */
  layout: () => DirectoryLayout;
  /** Imports running in this process, by CIDv1 string, so a second import of the same root waits for the first. */
  imports: Map<string, Promise<DirectoryStats>>;
}

export interface FoldersInit {
  store: Store;
  blockstore: DirectoryBlockstore;
  pins: FolderPins;
  clock: Clock;
  /** Shard nodes kept decoded; default 4096 (about 80 MB at worst). */
  shardCacheSize?: number;
  /** A fixed layout (over the defaults), or the one in use at each edit. */
  layout?: Partial<DirectoryLayout> | (() => DirectoryLayout);
}

/**
 * Builds the context. An import that a previous process left `importing` can never finish, so it is
 * dropped here, before the context can serve a request: the client's retry imports the root again.
 */
export async function createFoldersContext(init: FoldersInit): Promise<FoldersContext> {
  await init.store.folders.deleteImportingFolderRoots();
  return {
    store: init.store,
    blockstore: init.blockstore,
    pins: init.pins,
    clock: init.clock,
    shardCache: createShardCache(init.shardCacheSize ?? 4096),
    layout: layoutSource(init.layout),
    imports: new Map(),
  };
}

function layoutSource(layout: FoldersInit['layout']): () => DirectoryLayout {
  if (typeof layout === 'function') return layout;
  const fixed: DirectoryLayout = { ...DEFAULT_LAYOUT, ...layout };
  return () => fixed;
}
