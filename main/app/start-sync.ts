import type { FastifyInstance } from 'fastify';
import { CID } from 'multiformats/cid';
import { systemClock, type Clock } from '../base/clock.js';
import type { DisposalStack } from '../base/disposal-stack.js';
import type { SyncEvents } from '../sync/sync-events.js';
import type { Logger } from '../base/logger.js';
import type { CidProfile } from '../content/cid-profile.js';
import type { FoldersContext } from '../folders/index.js';
import { syncRoutes, syncUnavailableRoutes } from '../http/routes/sync.js';
import type { NamesContext } from '../names/context.js';
import { createName, publishOwnedName } from '../names/manage-names.js';
import { tryParseIpnsName, type IpnsName } from '../names/name-parse.js';
import type { PinsContext } from '../pins/context.js';
import type { Blocks } from '../store/blocks.js';
import type { Store } from '../store/repositories/index.js';
import { check, record } from '../accounts/usage.js';
import { createKeyedLock } from '../base/keyed-lock.js';
import type { NetworkFetcher } from '../network/network-fetcher.js';
import { createBatchSessions } from '../sync/batch-session.js';
import type { FollowDomains, FollowRunnerTiming } from '../sync/follow/follow-runner.js';
import { createSyncRootPins } from '../sync/root-pins.js';
import type { RunnerTiming, SyncDomains } from '../sync/runner.js';
import { createSyncService, type SyncService } from '../sync/sync-service.js';

/**
 * The sync part of the composition root: wires the sync engine to content import, the folders
 * domain (directory edits, pin moves), pins and names, registers the sync routes, and starts every
 * sync folder again.
 */

export interface SyncDeps {
  server: FastifyInstance;
  store: Store;
  blockstore: Blocks;
  pins: PinsContext;
  names: NamesContext;
  folders: FoldersContext;
  logger: Logger;
  clock?: Clock;
  timing?: RunnerTiming;
  /** The layout of the files and directories a sync writes now (`cid_profile`). */
  profile: () => CidProfile;
  /** The live event stream: sync folder status changes. */
  events?: SyncEvents;
  /** Where followed folders fetch their versions (the network settings' sources, routing, the folder's gateways). */
  fetcher: Pick<NetworkFetcher, 'fetchDag' | 'online'>;
  /** Tests only: shorter waits of the followed folders. */
  followTiming?: FollowRunnerTiming;
}

/**
 * Starts every sync folder again. The service is registered on `stack` before its folders start, so a
 * start that fails among them closes the runners already running.
 */
export async function startSync(stack: DisposalStack, deps: SyncDeps): Promise<SyncService> {
  const { store, pins, names, logger } = deps;
  const domains: SyncDomains = {
    store,
    clock: deps.clock ?? systemClock,
    logger,
    events: deps.events,
    // A batch holds the GC lock (shared) from its first import to its pin, and pins under that hold.
    holdGc: (fn) => pins.gcLock.shared(fn),
    openSession: createBatchSessions({ blockstore: deps.blockstore, folders: deps.folders, profile: deps.profile }),
    movePin: createSyncRootPins(store, pins),
    // A newer record of the name from elsewhere (the same key on another machine) stops a sync folder's publish
    // rather than being overwritten; the user's force publishes over it (contract section 11).
    async publish(accountId, ipnsName, root, force = false) {
      const outcome = await publishOwnedName(names, accountId, storedIpnsName(ipnsName), CID.parse(root), force ? 'publish' : 'stop');
      return outcome.kind;
    },
    async createName(accountId, root) {
      return (await createName(names, accountId, CID.parse(root))).name;
    },
  };

  // Followed folders (issue 24): records through the names domain, blocks through the network fetcher charged
  // as the owner's ingress (as a pin's fetch is), roots pinned as sync folders' are.
  const follow: FollowDomains = {
    store,
    blocks: deps.blockstore,
    fetcher: deps.fetcher,
    census: (root, signal) => pins.content.census(root, signal),
    knownComplete: (root, bytes) => pins.content.knownComplete?.(root, bytes),
    records: {
      names: store.names,
      nameLock: names.nameLock,
      clock: names.clock,
      ...(names.networkRecords ? { network: names.networkRecords } : {}),
      forget: (name) => names.resolver.forget(name),
      logger,
    },
    async chargeIngress(tx, accountId, bytes) {
      await check(pins.accounts, tx, accountId, 'ingress', bytes);
      await record(pins.accounts, tx, accountId, 'ingress', bytes);
    },
    movePin: (...args) => domains.movePin(...args),
    holdGc: (fn) => domains.holdGc(fn),
    writeLock: createKeyedLock(),
    logger,
    clock: domains.clock,
  };
  const service = stack.use(
    createSyncService({
      domains,
      timing: deps.timing,
      blocks: deps.blockstore,
      follow: { domains: follow, ...(deps.followTiming ? { timing: deps.followTiming } : {}) },
    }),
  );
  syncRoutes(deps.server, service);

  await service.startAll();
  return service;
}

/**
 * Sync keeps a folder's IPNS name as the text createName gave it (and its roots as the text of CIDs content
 * import made), so reading one back only fails when the sync database was damaged.
 */
function storedIpnsName(text: string): IpnsName {
  const name = tryParseIpnsName(text);
  if (name === undefined) throw new Error(`the IPNS name ${text} of a sync folder does not parse`);
  return name;
}

/** No sync folders in this service (the scale-out mode): every sync call answers 409 with the reason. */
export function refuseSync(server: FastifyInstance): void {
  syncUnavailableRoutes(
    server,
    'sync folders are a desktop, single-instance feature: this service keeps its metadata in PostgreSQL (--db), which several instances may share; sync a folder with the desktop app or a pinfold serve without --db',
  );
}
