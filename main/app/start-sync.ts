import type { FastifyInstance } from 'fastify';
import { CID } from 'multiformats/cid';
import { systemClock, type Clock } from '../base/clock.js';
import { NotFoundError } from '../base/errors.js';
import type { EventPublisher } from '../base/events.js';
import type { Logger } from '../base/logger.js';
import type { ReadWriteLock } from '../base/read-write-lock.js';
import type { CidProfile } from '../content/cid-profile.js';
import { createShardCache, editDirectory, type DirectoryBlockstore, type DirectoryStats } from '../content/directory/index.js';
import { importFile } from '../content/import/import-file.js';
import { syncRoutes } from '../http/routes/sync.js';
import type { NamesContext } from '../names/context.js';
import { createName, publishName } from '../names/manage-names.js';
import type { PinsContext } from '../pins/context.js';
import { addPin, isPinned, removePin } from '../pins/pins.js';
import type { PinfoldBlockstore } from '../store/blockstore/blockstore.js';
import type { Db } from '../store/db/database.js';
import { listSyncFolders } from '../store/db/sync-queries.js';
import type { BlockSession, RunnerTiming, SyncDomains } from '../sync/runner.js';
import { createSyncService, type SyncService } from '../sync/sync-service.js';

/**
 * The sync part of the composition root: wires the sync engine to content import, directory editing,
 * pins and names, registers the sync routes, and starts every sync folder again.
 */

export interface SyncDeps {
  server: FastifyInstance;
  db: Db;
  blockstore: PinfoldBlockstore;
  pins: PinsContext;
  names: NamesContext;
  logger: Logger;
  clock?: Clock;
  timing?: RunnerTiming;
  /** The layout of the files and directories a sync writes (--cid-profile). */
  profile: CidProfile;
  /** The live event stream: sync folder status changes. */
  events?: Pick<EventPublisher, 'syncChanged'>;
}

export interface SyncHandle {
  service: SyncService;
  close(): Promise<void>;
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

const passThroughLock: ReadWriteLock = { shared: (fn) => fn(), exclusive: (fn) => fn() };

export function startSync(deps: SyncDeps): SyncHandle {
  const { db, blockstore, pins, names, logger, profile } = deps;
  const clock = deps.clock ?? systemClock;
  // A batch holds the GC lock (shared) from its first import to its pin; addPin takes that lock
  // itself, and a second shared request queued behind a waiting GC would deadlock, so inside the
  // batch pins see a lock that is already held.
  const heldPins: PinsContext = { ...pins, gcLock: passThroughLock };
  const shardCache = createShardCache(4096);
  // Stats (plain/HAMT, entry count) of directories this process made, by CID, so that editing one
  // again does not walk a whole HAMT to count its entries.
  const dirStats = boundedMap<DirectoryStats>(20_000);

  const openSession = (): BlockSession => {
    const batch = blockstore.createBatch();
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
        const result = await editDirectory(
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
          { ...profile.directory, signal: options.signal, shardCache, statsOf: (cid) => dirStats.get(cid.toString()) },
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

  const domains: SyncDomains = {
    db,
    clock,
    logger,
    events: deps.events,
    holdGc: (fn) => pins.gcLock.shared(fn),
    openSession,
    async movePin(accountId, newRoot, oldRoot, pinName) {
      const cid = CID.parse(newRoot);
      const hadPin = isPinned(pins, accountId, cid);
      const row = await addPin(heldPins, accountId, cid, { name: pinName });
      if (row.status !== 'pinned') {
        // Blocks are missing (GC ran while a journal waited): undo the pin this call made.
        if (!hadPin) removePinQuietly(accountId, newRoot);
        throw new NotFoundError(`sync root ${newRoot}: blocks are missing`);
      }
      if (oldRoot === undefined || oldRoot === newRoot) return;
      // Two folders with the same content share a root: the other folder still needs that pin.
      const sharers = listSyncFolders(db).filter((folder) => folder.rootCid === oldRoot).length;
      if (sharers <= 1) removePinQuietly(accountId, oldRoot);
    },
    async publish(accountId, ipnsName, root) {
      await publishName(names, accountId, ipnsName, root);
    },
    async createName(accountId, root) {
      return (await createName(names, accountId, root)).name;
    },
  };

  function removePinQuietly(accountId: number, cid: string): void {
    try {
      removePin(pins, accountId, CID.parse(cid));
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }

  const service = createSyncService({ domains, timing: deps.timing });
  syncRoutes(deps.server, service);

  service.startAll();
  return {
    service,
    async close() {
      await service.close();
    },
  };
}
