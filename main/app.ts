import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { CID } from 'multiformats/cid';
import type { SignInCode } from '../shared/api-types.js';
import { systemClock, type Clock } from './base/clock.js';
import { ConflictError } from './base/errors.js';
import type { ServiceConfig } from './base/config.js';
import { acquireDataFolderLock, type DataFolderLock } from './base/lock-file.js';
import { silentLogger, type Logger } from './base/logger.js';
import { packageRoot, packageVersion } from './base/package-root.js';
import { createSealedBox } from './base/sealed-box.js';
import { FileSecretStore, loadOrCreateMasterKey, UPLOAD_KEY_NAME } from './base/secret-store.js';
import { openDatabase, type Db } from './store/db/database.js';
import type { AccountsContext } from './accounts/context.js';
import { createKeyCache } from './accounts/key-cache.js';
import { ensureOwner, ownerKeyFromEnv, type OwnerKey } from './accounts/owner-key.js';
import { loadPlanCatalog } from './accounts/plans.js';
import { verifyMasterKey } from './accounts/master-key-check.js';
import { sweepExpiredSessions } from './accounts/session-keys.js';
import { createSignInCodes } from './accounts/sign-in-codes.js';
import { buildServer, withMultipart } from './http/server.js';
import { accountRoutes } from './http/routes/account.js';
import { partnerRoutes } from './http/routes/partner.js';
import { planRoutes } from './http/routes/plans.js';
import { rendererRoutes } from './http/routes/renderer-files.js';
import { serviceRoutes } from './http/routes/service.js';
import { uploadSettingsRoutes } from './http/routes/upload-settings.js';
import { sessionRoutes, signInUrl } from './http/routes/session.js';
import { pinRoutes } from './http/routes/pins.js';
import { uploadRoutes } from './http/routes/uploads.js';
import { dagGetRoutes } from './http/routes/dag-get.js';
import { gatewayRoutes } from './http/gateway/index.js';
import { createReadWriteLock } from './base/read-write-lock.js';
import { unixSeconds } from './base/clock.js';
import { accountUsage, check, record, recordEgress, reserve } from './accounts/usage.js';
import { accountById } from './store/db/accounts-queries.js';
import { createEventHub } from './http/events/event-hub.js';
import { eventRoutes } from './http/routes/events.js';
import type { SyncService } from './sync/sync-service.js';
import { createEgressMeter } from './accounts/egress-meter.js';
import { openBlockstore, type PinfoldBlockstore } from './store/blockstore/blockstore.js';
import { walkDag, walkDagBlocks } from './content/walk/walk-dag.js';
import { builtinBlocks } from './content/builtin-blocks.js';
import { cidProfile } from './content/cid-profile.js';
import type { PinsContext } from './pins/context.js';
import { collectGarbage, type GcResult, type GcStore } from './pins/gc.js';
import { startPendingPins } from './pins/pending-pins.js';
import { addPin, isPinned, isReachedByOtherPin } from './pins/pins.js';
import { createFoldersContext, forgetCollectedFolderRoots, moveFolderPins } from './folders/index.js';
import { folderRoutes } from './http/routes/folders.js';
import { parseCidParam } from './content/cid-param.js';
import { createNamesContext } from './names/context.js';
import { startRepublisher } from './names/republish.js';
import { resolveName } from './names/resolver.js';
import { nameRoutes } from './http/routes/names.js';
import { startSync } from './app-sync.js';
import { removeServerFile, writeServerFile } from './app-server-file.js';
import { reachableUrl } from './base/reachable-url.js';
import { keychainService, osKeychainEntry, type KeychainAccess } from './secrets/keychain-entry.js';
import { openSecrets } from './secrets/open-secrets.js';
import type { SecretsHomeKind } from './secrets/secrets-record.js';

export type { OwnerKey, OwnerKeyStore } from './accounts/owner-key.js';

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
}

export interface PinfoldApp {
  readonly config: ServiceConfig;
  readonly ownerKey: OwnerKey;
  /** True when this start created the owner key (first start, or the old one was lost). */
  readonly ownerKeyCreated: boolean;
  readonly ownerKeyLocation: string;
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

/** The longest Cache-Control max-age we send (one year, as for immutable content). */
const MAX_CACHE_SECONDS = 29_030_400;

/** GC met a block it cannot follow under a pin: a fault in the data, which the cycle reports and stops on. */
export class UnreadableDagError extends Error {
  override readonly name = 'UnreadableDagError';
  constructor(root: CID, block: CID, reason: string) {
    super(
      `garbage collection stopped before deleting anything: block ${block.toString()} under pin ${root.toString()} cannot be read under its codec (${reason})`,
    );
  }
}

/**
 * What GC sees of the blockstore: marks follow links of every codec; the built-in blocks (the empty
 * directory, always available) are stored first and never offered for deletion. Shared by the server and
 * by `pinfold gc` when no server runs.
 */
export async function contentGcStore(blocks: PinfoldBlockstore): Promise<GcStore> {
  const builtins = await builtinBlocks();
  for (const block of builtins) if (!blocks.has(block.cid)) await blocks.put(block.cid, block.bytes);
  const builtinKeys = new Set(builtins.map((block) => Buffer.from(block.cid.multihash.bytes).toString('latin1')));
  return {
    async mark(root, visit, signal) {
      for await (const event of walkDagBlocks(blocks, root, { signal })) {
        if (event.kind === 'block') visit(event.multihash);
        // What it links to is unknown: marking on as if it were a leaf would let the sweep delete blocks the
        // pin reaches. The cycle fails before its sweep instead, and deletes nothing.
        else if (event.kind === 'unreadable') throw new UnreadableDagError(root, event.cid, event.reason);
      }
    },
    async *storedBlocks() {
      for (const block of blocks.listBlocks()) if (!builtinKeys.has(Buffer.from(block.multihash).toString('latin1'))) yield block;
    },
    deleteMultihashes: (multihashes, createdBefore) => blocks.deleteMultihashes(multihashes, { createdBefore }),
    async compact(signal) {
      await blocks.compact({ signal });
    },
  };
}

/** The pin census over the blockstore: a DAG's bytes, and what keeps it from being complete. */
export function contentCensus(blocks: PinfoldBlockstore): PinsContext['content'] {
  return {
    async census(root, signal) {
      const summary = await walkDag(blocks, root, { signal });
      // A block whose links cannot be read hides what lies below it: the DAG cannot be known complete.
      return { bytes: summary.bytes, missing: summary.missing.length + summary.unreadable.length };
    },
  };
}

/**
 * One garbage-collection cycle and the index cleanup that follows it: folder roots whose blocks the
 * cycle deleted are forgotten (with their members). Shared by the server and by `pinfold gc` when no
 * server runs.
 */
export async function garbageCollectionCycle(pins: PinsContext, gcStore: GcStore, blocks: PinfoldBlockstore, graceSeconds: number): Promise<GcResult> {
  const result = await collectGarbage(pins, gcStore, graceSeconds);
  await forgetCollectedFolderRoots(pins.accounts.db, (cid) => blocks.has(cid));
  return result;
}

/** The composition root: the one module that sees every domain and wires them together. */
export async function createApp(init: AppInit): Promise<PinfoldApp> {
  const { config } = init;
  const clock = init.clock ?? systemClock;
  const logger = init.logger ?? silentLogger;
  const startedAt = unixSeconds(clock);
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const lock: DataFolderLock = acquireDataFolderLock(config.dataDir);
  let db: Db | null = null;
  let blockstore: PinfoldBlockstore | null = null;
  try {
    // The master key is judged against the folder's sealed check before the database is opened for writing.
    const secrets = await openSecrets({
      dataDir: config.dataDir,
      prefer: init.secrets?.prefer ?? 'file',
      keychain: init.secrets?.keychain ?? { service: keychainService(init.env ?? process.env), entry: osKeychainEntry },
    });
    db = openDatabase(join(config.dataDir, 'pinfold.db'));
    const box = createSealedBox(secrets.masterKey);
    verifyMasterKey(db, box, secrets.description);
    const accounts: AccountsContext = {
      db,
      plans: loadPlanCatalog(config.dataDir),
      box,
      clock,
      keyCache: createKeyCache(),
    };
    accounts.egressMeter = createEgressMeter(db, (accountId, bytes) => record(accounts, accountId, 'egress', bytes));
    // The window's live events (GET /api/v0/events): each domain gets the part it publishes.
    let syncService: SyncService | undefined;
    const events = createEventHub({
      clock,
      usageOf(accountId) {
        const account = accountById(accounts.db, accountId);
        return account ? accountUsage(accounts, account) : null;
      },
      syncFolderOf: (accountId, folderId) => syncService?.status(accountId, folderId),
      partnerOf(accountId) {
        const account = accountById(accounts.db, accountId);
        return account && account.partnerId !== null ? { partnerId: account.partnerId, uuid: account.uuid } : null;
      },
    });
    accounts.events = events;
    const ownerKeyStore = secrets.ownerKeyStore;
    const owner = await ensureOwner(accounts, ownerKeyStore, ownerKeyFromEnv(init.env ?? process.env));

    blockstore = await openBlockstore(join(config.dataDir, 'blocks'), db, { clock, exclusive: true, logger });
    const blocks = blockstore;
    const gcStore = await contentGcStore(blocks);
    const pins: PinsContext = {
      accounts,
      content: contentCensus(blocks),
      pinTimeoutSeconds: config.pinTimeoutSeconds,
      gcLock: createReadWriteLock(),
      events,
    };
    const pendingPins = startPendingPins(pins, logger);
    pins.onPinning = () => pendingPins.nudge();
    const runGc = async (): Promise<GcResult> => {
      const result = await garbageCollectionCycle(pins, gcStore, blocks, config.gcGraceSeconds);
      logger.info('garbage collection finished', { ...result });
      return result;
    };
    const gcTimer = setInterval(() => {
      runGc().catch((error: unknown) => logger.error('garbage collection failed', { error }));
    }, config.gcIntervalSeconds * 1000);
    gcTimer.unref();
    const uploadKey = await loadOrCreateMasterKey(new FileSecretStore(config.dataDir), UPLOAD_KEY_NAME);
    // One layout for everything that makes new content (contract section 5, --cid-profile).
    const profile = cidProfile(config.cidProfile);

    const names = createNamesContext({
      db,
      sealedBox: accounts.box,
      clock,
      limits: {
        reserveIpns: (accountId) => reserve(accounts, accountId, 'ipns', 1),
        releaseIpns: (accountId) => record(accounts, accountId, 'ipns', -1),
      },
      pinFirst: async (accountId, cid) => void (await addPin(pins, accountId, parseCidParam(cid, 'arg'), { parameter: 'arg' })),
      dnsResolver: config.dnsResolver,
      events,
    });
    const republisher = startRepublisher(names, logger);

    const folders = createFoldersContext({
      db,
      blockstore: blocks,
      clock,
      layout: profile.directory,
      pins: {
        isPinned: (accountId, cid) => isPinned(pins, accountId, cid),
        isUsedByOtherPin: (accountId, cid) =>
          isReachedByOtherPin(pins, accountId, cid, async function* (root) {
            for await (const event of walkDagBlocks(blocks, root)) {
              if (event.kind === 'block') yield event.multihash;
              // Whether it reaches `cid` is unknown, so the old root is not let go.
              else if (event.kind === 'unreadable')
                throw new ConflictError(
                  `unpin_old: cannot tell whether another pinned DAG still uses ${cid.toString()}: its block ${event.cid.toString()} cannot be read (${event.reason})`,
                );
            }
          }),
        checkPinChanges(accountId, changes) {
          // Limits first, before the operation writes a single block (contract section 3: a refused call changes nothing).
          if (!changes.pin || isPinned(pins, accountId, changes.pin)) return;
          check(accounts, accountId, 'pinned_count', 1);
          if (changes.pinBytes !== undefined) check(accounts, accountId, 'pinned_bytes', changes.pinBytes);
        },
        applyPinChanges: async (accountId, changes) => void (await pins.gcLock.shared((hold) => moveFolderPins(pins, hold, accountId, changes))),
      },
    });

    sweepExpiredSessions(accounts);
    const sessionSweep = setInterval(() => {
      try {
        sweepExpiredSessions(accounts);
      } catch (error) {
        logger.error('session sweep failed', { error });
      }
    }, SESSION_SWEEP_MS);
    sessionSweep.unref();
    const signInCodes = createSignInCodes(clock);

    const server = await buildServer({ config, clock, logger, accounts, ownerAccountId: owner.ownerAccountId });
    // The URL clients reach this server at (base/reachable-url.ts): server.json, the printed lines, links.
    const listenUrl = (): string => reachableUrl(config.host, server.server.address());
    planRoutes(server, accounts.plans);
    accountRoutes(server, accounts);
    sessionRoutes(server, { accounts, codes: signInCodes, ownerAccountId: owner.ownerAccountId, listenUrl });
    serviceRoutes(server, { config, version: packageVersion(), startedAt, listenUrl });
    uploadSettingsRoutes(server, config);
    partnerRoutes(server, accounts);
    pinRoutes(server, { pins, collectGarbage: runGc });
    nameRoutes(server, names);
    folderRoutes(server, folders);
    eventRoutes(server, events);
    const sync = startSync({ server, db, blockstore: blocks, pins, names, folders, logger, clock, profile, events });
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
        blocksAdded: () => pendingPins.nudge(),
        profile,
      }),
    );
    dagGetRoutes(server, { blockstore: blocks });
    gatewayRoutes(server, {
      blockstore: blocks,
      logger,
      async resolveName(name) {
        const resolution = await resolveName(names, name);
        return {
          cid: resolution.cid,
          path: resolution.path.split('/').filter((segment) => segment !== ''),
          // DNSLink answers carry no TTL we can read: send no Cache-Control rather than guess.
          ttlSeconds: Math.min(resolution.ttlSeconds ?? 0, MAX_CACHE_SECONDS),
          ...(resolution.record ? { record: resolution.record } : {}),
        };
      },
      beforeBody(request, bytes) {
        if (request.auth) check(accounts, request.auth.account.id, 'egress', bytes);
      },
      onBodyBytes(request, bytes) {
        if (request.auth) recordEgress(accounts, request.auth.account.id, bytes);
      },
    });
    rendererRoutes(server, init.rendererDir ?? join(packageRoot(), 'dist', 'renderer'));

    const openDb = db;
    let closed = false;
    return {
      config,
      ownerKey: owner.ownerKey,
      ownerKeyCreated: owner.created,
      ownerKeyLocation: ownerKeyStore.description,
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
        clearInterval(gcTimer);
        clearInterval(sessionSweep);
        events.close();
        await sync.close();
        await server.close();
        await pendingPins.close();
        await republisher.close();
        await pins.gcLock.exclusive(async () => blocks.close());
        accounts.egressMeter?.close();
        openDb.close();
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
    await blockstore?.close();
    db?.close();
    lock.release();
    throw error;
  }
}
