import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { SignInCode } from '../../shared/api-types.js';
import { systemClock, type Clock } from '../base/clock.js';
import type { ServiceConfig } from '../base/config.js';
import { acquireDataFolderLock, type DataFolderLock } from '../base/lock-file.js';
import { silentLogger, type Logger } from '../base/logger.js';
import { packageRoot, packageVersion } from '../base/package-root.js';
import { createSealedBox } from '../base/sealed-box.js';
import { FileSecretStore, loadOrCreateMasterKey } from '../secrets/secret-store.js';
import { deriveUploadSigningKey, UPLOAD_KEY_NAME } from '../http/upload-signing-key.js';
import type { ChangePublisher } from '../base/changes.js';
import type { ChangeChannel } from '../store/pg/change-channel.js';
import { openMetadataStore, type MetadataStore } from './metadata-store.js';
import { openBlockStore, type BlockStore } from './block-store.js';
import type { AccountsContext } from '../accounts/context.js';
import { createKeyCache } from '../accounts/key-cache.js';
import { ensureOwner, ownerKeyFromEnv, type OwnerKey } from '../accounts/owner-key.js';
import { loadPlanCatalog } from '../accounts/plans.js';
import { verifyMasterKey } from '../accounts/master-key-check.js';
import { openInstanceSecrets, placeOnThisHost, verifySharedMasterKey } from './instance-secrets.js';
import { startGcSchedule, type GcSchedule } from './gc-schedule.js';
import { composeReadWriteLocks } from '../base/read-write-lock.js';
import { sweepExpiredSessions } from '../accounts/session-keys.js';
import { createSignInCodes } from '../accounts/sign-in-codes.js';
import { buildServer, withMultipart } from '../http/server.js';
import { accountRoutes } from '../http/routes/account.js';
import { partnerRoutes } from '../http/routes/partner.js';
import { planRoutes } from '../http/routes/plans.js';
import { rendererRoutes } from '../http/routes/renderer-files.js';
import { serviceRoutes } from '../http/routes/service.js';
import { runProofRoutes } from '../http/routes/run-proof.js';
import { uploadSettingsRoutes } from '../http/routes/upload-settings.js';
import { sessionRoutes } from '../http/routes/session.js';
import { createSignInHandoffs, signInUrl } from '../http/sign-in-handoff.js';
import { createPrivateFolder } from '../base/private-folder.js';
import { pinRoutes } from '../http/routes/pins.js';
import { psaRoutes } from '../http/routes/psa.js';
import { uploadRoutes } from '../http/routes/uploads.js';
import type { UploadTestHooks } from '../http/step-two-outcomes.js';
import { dagGetRoutes } from '../http/routes/dag-get.js';
import { gatewayRoutes } from '../http/gateway/index.js';
import { createReadWriteLock } from '../base/read-write-lock.js';
import { unixSeconds } from '../base/clock.js';
import { accountUsage, checkEgressNow, currentUsage, record, recordEgress, reserve } from '../accounts/usage.js';
import { createEventHub } from '../http/events/event-hub.js';
import { eventRoutes } from '../http/routes/events.js';
import type { FollowRunnerTiming } from '../sync/follow/follow-runner.js';
import type { SyncService } from '../sync/sync-service.js';
import { createEgressMeter } from '../accounts/egress-meter.js';
import { cidProfile } from '../content/cid-profile.js';
import type { PinsContext } from '../pins/context.js';
import type { GcResult } from '../pins/gc.js';
import { contentCensus } from '../pins/content-census.js';
import { contentGcStore } from '../pins/gc-content-store.js';
import { startPendingPins } from '../pins/pending-pins.js';
import { addPin } from '../pins/pins.js';
import { createFoldersContext } from '../folders/index.js';
import { folderPinPolicy } from '../folders/folder-pin-policy.js';
import { garbageCollectionCycle } from './garbage-collection.js';
import { folderRoutes } from '../http/routes/folders.js';
import { createNamesContext } from '../names/context.js';
import { startRepublisher } from '../names/republish.js';
import { createNetworkPublisher, type NetworkPublisherInit } from '../names/network-publisher.js';
import { createNameRecordSources } from '../network/name-records.js';
import { loadPeerIdentity } from '../network/peer-identity.js';
import { readThroughBlocks } from '../network/read-through-blocks.js';
import { routingRoutes } from '../http/routes/routing.js';
import { nameRoutes } from '../http/routes/names.js';
import { gatewayNameResolver } from '../http/gateway/index.js';
import { refuseSync, startSync } from './start-sync.js';
import { removeServerFile, writeServerFile } from './server-file.js';
import { reachableUrl } from '../base/reachable-url.js';
import { keychainService, osKeychainEntry, type KeychainAccess } from '../secrets/keychain-entry.js';
import type { SecretsHomeKind } from '../secrets/secrets-record.js';
import { dataFolderPaths } from '../base/data-folder.js';
import { SettingsFile } from '../base/settings-file.js';
import { openNetworkSettings } from '../network/settings.js';
import { createRoutingClient } from '../network/routing-client.js';
import { createNetworkFetcher } from '../network/network-fetcher.js';
import type { FetchTuning } from '../network/fetch-tuning.js';
import { PinFetchBoard, startPinFetches, type PinFetches } from '../pins/pin-fetches.js';
import { originSourcesOf } from '../pins/psa-pins.js';
import { settingsRoutes } from '../http/routes/settings.js';

export type { OwnerKey, OwnerKeyStore } from '../accounts/owner-key.js';

export interface AppInit {
  config: ServiceConfig;
  /**
   * Where the master key and the owner key live. A data folder records their home in secrets.json and
   * that record wins; `prefer` only chooses it for a new folder (the desktop app and `serve --keychain`:
   * keychain; otherwise 0600 files). `keychain` defaults to the OS keychain under keychainService().
   */
  secrets?: { prefer?: SecretsHomeKind; keychain?: KeychainAccess };
  logger?: Logger;
  clock?: Clock;
  env?: NodeJS.ProcessEnv;
  /** The built renderer; defaults to dist/renderer of this package. */
  rendererDir?: string;
  /**
   * The token the desktop's main process started this service with (base/run-proof.ts): the service
   * then answers GET /api/v0/service/proof, so the main process can tell it from a squatter on its port.
   */
  runToken?: string;
  /** Tests only: shorter waits for fetches from the network (a stall test should not wait 30 s). */
  fetchTuning?: Partial<FetchTuning>;
  /** Tests only: shorter waits of the public names' publisher (a retry, a refresh, the interval between puts). */
  namePublishing?: Pick<NetworkPublisherInit, 'retryFirstMs' | 'retryMaxMs' | 'refreshMs' | 'minPutIntervalMs'>;
  /** Tests only: shorter waits of followed folders (the periodic check, the backoff, a long-poll's wait). */
  followTiming?: FollowRunnerTiming;
  /**
   * Tests only: a gate between an upload's last byte and its commit, and its end (http/step-two-outcomes.ts),
   * so that a test decides whether a cancel or the commit comes first. Nothing else sets it.
   */
  uploadTestHooks?: UploadTestHooks;
}

export interface PinfoldApp {
  readonly config: ServiceConfig;
  /**
   * The owner's admin key; null on an instance of a shared database (`--db`) that did not make it and has
   * none in its data folder: the key is then where ownerKeyLocation says (the first instance's folder).
   */
  readonly ownerKey: OwnerKey | null;
  /** True when this start created the owner key (first start, or the old one was lost). */
  readonly ownerKeyCreated: boolean;
  readonly ownerKeyLocation: string;
  /** Lines `pinfold serve` prints at start about the instances sharing a database (`--db`); empty otherwise. */
  readonly sharedNotes: readonly string[];
  /** Where this data folder's secrets live (secrets.json), in words. */
  readonly secretsLocation: string;
  /** Set when the folder keeps its secrets elsewhere than `secrets.prefer` asked: the record won. */
  readonly secretsNote: string | null;
  readonly server: FastifyInstance;
  /** Starts accepting requests; resolves to the base URL, e.g. http://127.0.0.1:5080. */
  listen(): Promise<string>;
  close(): Promise<void>;
  /** One garbage-collection cycle now (also run every --gc-interval). */
  collectGarbage(): Promise<GcResult>;
  /** A one-time sign-in code for the owner and its link (`pinfold serve` prints it); call after listen(). */
  issueSignInCode(): SignInCode;
  nowSeconds(): number;
}

/** How often expired session keys are deleted (auth refuses them from their expiry second on anyway). */
const SESSION_SWEEP_MS = 5 * 60 * 1000;

/** The composition root: the one module that sees every domain and wires them together. */
export async function createApp(init: AppInit): Promise<PinfoldApp> {
  const { config } = init;
  const clock = init.clock ?? systemClock;
  const logger = init.logger ?? silentLogger;
  const startedAt = unixSeconds(clock);
  const paths = dataFolderPaths(config.dataDir);
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  const lock: DataFolderLock = acquireDataFolderLock(config.dataDir);
  let metadata: MetadataStore | null = null;
  let blockstore: BlockStore | null = null;
  let gcSchedule: GcSchedule | null = null;
  let fetchRunner: PinFetches | null = null;
  let namePublisher: { close(): Promise<void> } | null = null;
  try {
    // The master key is judged against the folder's sealed check before the database is opened for writing.
    const env = init.env ?? process.env;
    const secrets = await openInstanceSecrets({
      config,
      env,
      prefer: init.secrets?.prefer ?? 'file',
      keychain: init.secrets?.keychain ?? { service: keychainService(env), entry: osKeychainEntry },
    });
    // Read before anything is opened: a broken settings.json stops the start with a message naming it.
    const network = await openNetworkSettings(new SettingsFile(paths.settings), config.network);
    metadata = await openMetadataStore(config, paths.database);
    const { store, coordination } = metadata;
    const rowCopies = metadata;
    const box = createSealedBox(secrets.masterKey);
    const sharedNotes: string[] = [];
    if (coordination === null) await verifyMasterKey(store, box, secrets.description);
    else {
      // Under the setup lock: of two first starts, one writes the sealed check and the other is judged by it.
      const masterKeyHome = await coordination.setupLock.exclusive(() => verifySharedMasterKey(store, box, secrets));
      sharedNotes.push(`Master key of this database: ${masterKeyHome} (start other instances with --master-key-file naming a 0600 copy of it)`);
    }
    // The window's live events (GET /api/v0/events): each domain gets the part it publishes. The hub asks
    // back for usage, partners and sync status only when it publishes, once everything below is built.
    let syncService: SyncService | undefined;
    const events = createEventHub({
      clock,
      async usageOf(accountId) {
        const account = await store.accounts.accountById(accountId);
        return account ? accountUsage(accounts, account, await currentUsage(accounts, store, account.id)) : null;
      },
      syncFolderOf: async (accountId, folderId) => syncService?.status(accountId, folderId),
      async partnerOf(accountId) {
        const account = await store.accounts.accountById(accountId);
        return account && account.partnerId !== null ? { partnerId: account.partnerId, uuid: account.uuid } : null;
      },
    });
    // Changes other instances must hear of (`--db`); the channel opens once the caches it keeps exist.
    let changeChannel: ChangeChannel | null = null;
    const changes: ChangePublisher | undefined = coordination ? { published: (change) => changeChannel?.published(change) } : undefined;
    const accounts: AccountsContext = {
      store,
      ...(changes ? { changes } : {}),
      plans: loadPlanCatalog(config.dataDir),
      box,
      clock,
      keyCache: createKeyCache(),
      egressMeter: createEgressMeter(
        store,
        (tx, accountId, bytes) => record(accounts, tx, accountId, 'egress', bytes),
        (error) => logger.error('writing metered egress failed', { error }),
      ),
      events,
    };
    const owner = await ensureOwner(
      accounts,
      secrets.ownerKeyStore,
      ownerKeyFromEnv(env),
      coordination ? { home: placeOnThisHost(secrets.ownerKeyStore.description) } : undefined,
    );
    if (coordination !== null && owner.ownerKey === null) {
      sharedNotes.push(`Owner access key: made by the first instance on this database, in ${owner.location}; this instance made none`);
    }

    blockstore = await openBlockStore(config, { localDir: paths.blocks, index: accounts.store, metadataEngine: metadata.engine, clock, logger });
    const blocks = blockstore;
    const gcStore = await contentGcStore(blocks);
    // The IPFS network over HTTP (contract section 11): routing endpoints and trustless gateways, as the
    // live settings say (offline: nothing leaves this machine).
    const routing = createRoutingClient({ settings: network, logger });
    const fetcher = createNetworkFetcher({ settings: network, routing, blocks, logger, ...(init.fetchTuning ? { tuning: init.fetchTuning } : {}) });
    const fetchBoard = new PinFetchBoard();
    const pins: PinsContext = {
      accounts,
      content: contentCensus(blocks),
      pinTimeoutSeconds: config.pinTimeoutSeconds,
      // Across instances too with `--db`: this process's queue first, then the database's advisory lock.
      gcLock: coordination ? composeReadWriteLocks(createReadWriteLock(), coordination.gcLock) : createReadWriteLock(),
      // Only addPin calls it, and no pin is added before the runners below have started.
      onPinning: () => {
        pendingPins.nudge();
        pinFetches.nudge();
      },
      events,
      fetches: fetchBoard,
    };
    const pendingPins = startPendingPins(pins, logger);
    const runGc = async (): Promise<GcResult> => {
      const result = await garbageCollectionCycle(pins, gcStore, blocks, config.gcGraceSeconds);
      logger.info('garbage collection finished', { ...result });
      return result;
    };
    const schedule = await startGcSchedule({
      intervalSeconds: config.gcIntervalSeconds,
      leadership:
        coordination?.gcLeadership((leads) =>
          leads ? logger.info('garbage collection: this instance leads') : logger.warn('garbage collection: this instance no longer leads'),
        ) ?? null,
      runCycle: () => runGc().catch((error: unknown) => logger.error('garbage collection failed', { error })),
      logger,
    });
    gcSchedule = schedule;
    // A pin's missing blocks come from the network; on one instance only when several share the database.
    const pinFetches = startPinFetches({
      pins,
      fetcher,
      board: fetchBoard,
      onFetched: () => pendingPins.nudge(),
      // The Pinning Service API's origins of a pin: extra sources of its fetch.
      originsOf: (pin) => originSourcesOf(pins, pin.id),
      leads: () => schedule.leads(),
      logger,
    });
    fetchRunner = pinFetches;
    // Shared database: every instance must accept the addresses any of them signs, so the key comes from
    // the master key they share (derived, nothing stored); one instance keeps its data folder's own file.
    const uploadKey = coordination
      ? deriveUploadSigningKey(secrets.masterKey)
      : await loadOrCreateMasterKey(new FileSecretStore(config.dataDir), UPLOAD_KEY_NAME);
    // One layout for everything that makes new content (contract section 5, --cid-profile).
    const profile = cidProfile(config.cidProfile);

    // Names and the network (contract section 11): public names' records go to the routing endpoints, and a
    // name held elsewhere is looked up there and at the fetch sources. Every instance on a shared database
    // publishes what changes on it, and all public names at start; a record put twice is no harm.
    const publisher = createNetworkPublisher({ names: store.names, routing, clock, logger, ...init.namePublishing });
    namePublisher = publisher;
    const names = createNamesContext({
      store: accounts.store,
      sealedBox: accounts.box,
      clock,
      limits: {
        reserveIpns: (tx, accountId) => reserve(accounts, tx, accountId, 'ipns', 1),
        releaseIpns: (tx, accountId) => record(accounts, tx, accountId, 'ipns', -1),
      },
      pinFirst: async (accountId, cid) => void (await addPin(pins, accountId, cid, { parameter: 'arg' })),
      dnsResolver: config.dnsResolver,
      events,
      ...(changes ? { changes } : {}),
      network: publisher,
      networkRecords: createNameRecordSources({ settings: network, routing, logger }),
      logger,
    });
    const publishAll = (): void => {
      publisher.publishAll().catch((error: unknown) => logger.error('publishing public names to the network failed', { error }));
    };
    // Other endpoints (or online again): they get every public name's record.
    const stopPublishingOnChange = network.onChange(publishAll);
    publishAll();
    if (coordination !== null) {
      changeChannel = await coordination.changes({
        onChange(change) {
          if (change.kind === 'access-key') accounts.keyCache.evict(change.key);
          else if (change.kind === 'ipns-name') names.resolver.forget(change.key);
          else if (/^\d+$/.test(change.key)) rowCopies.rowChanged(change.kind, Number(change.key));
        },
        onResync() {
          logger.warn('the change channel reconnected: key, IPNS, account and usage caches dropped, as changes may have been missed');
          accounts.keyCache.clear();
          names.resolver.forgetAll();
          rowCopies.rowsMissed();
        },
        onError: (error) => logger.warn('change channel', { error }),
      });
    }
    const republisher = startRepublisher(names, logger);

    const folders = await createFoldersContext({
      store: accounts.store,
      blockstore: blocks,
      clock,
      layout: profile.directory,
      pins: folderPinPolicy(pins, blocks),
    });

    await sweepExpiredSessions(accounts);
    const sessionSweep = setInterval(() => {
      sweepExpiredSessions(accounts).catch((error: unknown) => logger.error('session sweep failed', { error }));
    }, SESSION_SWEEP_MS);
    sessionSweep.unref();
    const signInCodes = createSignInCodes(clock);

    const server = await buildServer({ config, clock, logger, accounts, ownerAccountId: owner.ownerAccountId });
    // The URL clients reach this server at (base/reachable-url.ts): server.json, the printed lines, links.
    const listenUrl = (): string => reachableUrl(config.host, server.server.address());
    planRoutes(server, accounts.plans);
    accountRoutes(server, accounts);
    // Sign-in pages for a browser opener (issue 22): in a folder of this process's own, gone when it stops.
    const handoffFolder = createPrivateFolder({ env, prefix: 'pinfold-sign-in-' });
    const handoffs = createSignInHandoffs({ codes: signInCodes, folder: handoffFolder, listenUrl, nowMs: () => clock.nowMs() });
    sessionRoutes(server, { accounts, codes: signInCodes, handoffs, ownerAccountId: owner.ownerAccountId, listenUrl });
    serviceRoutes(server, { config, version: packageVersion(), startedAt, listenUrl, gcLeader: () => schedule.leads() });
    if (init.runToken !== undefined) runProofRoutes(server, init.runToken);
    uploadSettingsRoutes(server, config);
    settingsRoutes(server, network);
    partnerRoutes(server, accounts);
    pinRoutes(server, { pins, collectGarbage: runGc });
    // No fetch of missing blocks runs yet, so no pin has heard from a source: every `pinning` pin is `queued`.
    await psaRoutes(server, { psa: { pins }, listenUrl, host: config.host, logger });
    nameRoutes(server, names);
    if (config.publicGateway) {
      // The routing API is served only by a public gateway: it names this gateway as a provider.
      const loadIdentity = () => loadPeerIdentity(store.meta, box);
      const identity = coordination ? await coordination.setupLock.exclusive(loadIdentity) : await loadIdentity();
      routingRoutes(server, { blocks, names, clock, peerId: identity.peerId, listenUrl });
    }
    folderRoutes(server, folders);
    eventRoutes(server, events);
    // Sync folders watch this machine's disk and keep one runner per folder: a desktop, single-instance
    // feature. With the metadata in PostgreSQL (`--db`), several instances may share it, so it is refused.
    const sync =
      metadata.engine === 'sqlite'
        ? await startSync({
            server,
            store,
            blockstore: blocks,
            pins,
            names,
            folders,
            logger,
            clock,
            profile,
            events,
            fetcher,
            ...(init.followTiming ? { followTiming: init.followTiming } : {}),
          })
        : refuseSync(server);
    syncService = sync.service;
    await withMultipart(server, (scope) =>
      uploadRoutes(scope, {
        accounts,
        pins,
        blockstore: blocks,
        uploadKey,
        clock,
        listenHost: config.host,
        pace: { windowMs: config.uploadIdleTimeoutMs, minBytes: config.uploadMinBytesPerWindow },
        blocksAdded: () => {
          pendingPins.nudge();
          // A CAR of a partial DAG leaves its root pins `pinning`: the rest comes from the network.
          pinFetches.nudge();
        },
        profile,
        ...(init.uploadTestHooks ? { testHooks: init.uploadTestHooks } : {}),
      }),
    );
    dagGetRoutes(server, { blockstore: blocks });
    gatewayRoutes(server, {
      blockstore: blocks,
      // `/ipns/<name>` of a name held elsewhere: its missing blocks come from the network, verified.
      foreignBlockstore: readThroughBlocks(blocks, (cid, signal) => fetcher.fetchBlock(cid, signal)),
      logger,
      resolveName: gatewayNameResolver(names.resolver),
      // A followed folder elsewhere waits on its name's next record here (the long-poll, issue 24).
      nameChanges: (name, signal) => names.resolver.nextChange(name, signal),
      beforeBody(request, bytes) {
        if (request.auth) return checkEgressNow(accounts, request.auth.account.id, bytes);
      },
      onBodyBytes(request, bytes) {
        // The server always runs a meter, so this never waits on the database.
        if (request.auth) void recordEgress(accounts, request.auth.account.id, bytes);
      },
    });
    rendererRoutes(server, init.rendererDir ?? join(packageRoot(), 'dist', 'renderer'));

    const openMetadata = metadata;
    let closed = false;
    return {
      config,
      ownerKey: owner.ownerKey,
      ownerKeyCreated: owner.created,
      ownerKeyLocation: owner.location,
      sharedNotes,
      secretsLocation: secrets.description,
      secretsNote: secrets.note,
      server,
      async listen() {
        await server.listen({ host: config.host, port: config.port });
        // The same URL the upload addresses are built on, and the one `pinfold serve` prints.
        const url = listenUrl();
        // Where `pinfold gc` and `pinfold sync` (the commands beside a running server) find it.
        await writeServerFile(config.dataDir, url);
        return url;
      },
      async close() {
        if (closed) return;
        closed = true;
        schedule.close();
        clearInterval(sessionSweep);
        events.close();
        await sync.close();
        await server.close();
        handoffs.close();
        handoffFolder.close();
        await pinFetches.close();
        stopPublishingOnChange();
        await publisher.close();
        fetcher.close();
        await routing.close();
        await pendingPins.close();
        await republisher.close();
        await pins.gcLock.exclusive(async () => blocks.close());
        await accounts.egressMeter?.close();
        await openMetadata.close();
        removeServerFile(config.dataDir);
        lock.release();
      },
      collectGarbage: runGc,
      issueSignInCode() {
        const issued = signInCodes.issue();
        return { code: issued.code, url: signInUrl(listenUrl(), issued.code), expires_at: issued.expiresAt };
      },
      nowSeconds: () => unixSeconds(clock),
    };
  } catch (error) {
    // A start that fails later must not leave the GC timers (or fetches) running against closed stores.
    gcSchedule?.close();
    await fetchRunner?.close();
    await namePublisher?.close();
    await blockstore?.close();
    await metadata?.close();
    lock.release();
    throw error;
  }
}
