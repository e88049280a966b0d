import { CID } from 'multiformats/cid';
import type { CidProfile } from '../content/cid-profile.js';
import type { DirectoryBlockstore, DirectoryStats } from '../content/directory/index.js';
import { importFile } from '../content/import/import-file.js';
import { editFolderDirectory, type FoldersContext } from '../folders/index.js';
import type { Blocks } from '../store/blocks.js';
import type { BlockSession } from './runner.js';

export interface BatchSessionsInit {
  blockstore: Blocks;
  /** Directories are edited through the folders domain: its one shard cache. */
  folders: Pick<FoldersContext, 'shardCache'>;
  /**
   * The layout of the files a sync imports and the directories it edits, and the empty directory its trees
   * start from: the one in use when a session opens, kept for the whole batch (a change of the CID profile
   * reaches the next batch, never half of one).
   */
  profile: () => CidProfile;
}

/** Bounded map: forgets the oldest entries first. */
function boundedMap<V>(max: number): { get(key: string): V | undefined; set(key: string, value: V): void } {
  const map = new Map<string, V>();
  return {
    get: (key) => map.get(key),
    set(key, value) {
      map.delete(key);
      map.set(key, value);
      if (map.size > max) map.delete(map.keys().next().value as string);
    },
  };
}

/**
 * Opens the block sessions of sync batches (see {@link BlockSession}): files are imported and
 * directories edited into one staged batch of the blockstore, committed once right before the pin.
 */
export function createBatchSessions(init: BatchSessionsInit): () => BlockSession {
  const { blockstore, folders } = init;
  // Stats (plain/HAMT, entry count) of directories this process made, by CID, so that editing one
  // again does not walk a whole HAMT to count its entries.
  const dirStats = boundedMap<DirectoryStats>(20_000);

  return (): BlockSession => {
    const batch = blockstore.createBatch();
    const profile = init.profile();
    const editing = { shardCache: folders.shardCache, layout: () => profile.directory };
    let done = false;
    // A parent link needs each new node's Tsize; the node is only staged, so it is known from here.
    const tsizes = new Map<string, number>();
    const directoryStore: DirectoryBlockstore = {
      get: (cid, options) => blockstore.get(cid, options),
      has: async (cid) => batch.has(cid),
      put: async (cid, bytes, options) => {
        if (!(bytes instanceof Uint8Array)) throw new TypeError('directory blocks must be Uint8Array');
        return batch.putTrusted(cid, bytes, options);
      },
    };
    return {
      emptyDirectory: profile.emptyDirectory.toString(),
      async importFile(source, options) {
        const result = await importFile(batch, source, { ...profile.file, signal: options.signal, transfer: options.transfer });
        const cid = result.cid.toString();
        tsizes.set(cid, result.dagSize);
        return { cid, size: result.size };
      },
      async applyOperation(dirCid, op, options) {
        const added = new Set(op.add.map((entry) => entry.name));
        const result = await editFolderDirectory(
          editing,
          directoryStore,
          CID.parse(dirCid),
          {
            add: op.add.map(({ name, cid }) => {
              const tsize = tsizes.get(cid);
              return tsize === undefined ? ([name, CID.parse(cid)] as const) : ([name, CID.parse(cid), tsize] as const);
            }),
            // An added name replaces the entry of that name; editDirectory refuses a name in both lists.
            remove: op.remove.filter((name) => !added.has(name)),
          },
          { signal: options.signal, statsOf: (cid) => dirStats.get(cid.toString()) },
        );
        const cid = result.cid.toString();
        tsizes.set(cid, result.size);
        dirStats.set(cid, result.stats);
        return cid;
      },
      async commit() {
        if (done) return;
        done = true;
        await batch.commit();
      },
      abort() {
        if (done) return;
        done = true;
        batch.abort();
      },
    };
  };
}
