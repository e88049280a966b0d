import type { FastifyInstance } from 'fastify';
import { packageVersion } from '../base/package-root.js';
import { reachableUrl } from '../base/reachable-url.js';
import { accountRoutes } from '../http/routes/account.js';
import { eventRoutes } from '../http/routes/events.js';
import { folderRoutes } from '../http/routes/folders.js';
import { nameRoutes } from '../http/routes/names.js';
import { partnerRoutes } from '../http/routes/partner.js';
import { pinRoutes } from '../http/routes/pins.js';
import { planRoutes } from '../http/routes/plans.js';
import { psaRoutes } from '../http/routes/psa.js';
import { routingRoutes } from '../http/routes/routing.js';
import { runProofRoutes } from '../http/routes/run-proof.js';
import { serviceRoutes } from '../http/routes/service.js';
import { sessionRoutes } from '../http/routes/session.js';
import { settingsRoutes } from '../http/routes/settings.js';
import { uploadSettingsRoutes } from '../http/routes/upload-settings.js';
import { buildServer } from '../http/server.js';
import { loadPeerIdentity } from '../network/peer-identity.js';
import type { SyncService } from '../sync/sync-service.js';
import type { AppDomains } from './app-domains.js';
import { contentRoutes } from './content-routes.js';
import type { Storage } from './open-storage.js';
import type { StartContext } from './start-context.js';
import { startSessions, type Sessions } from './start-sessions.js';
import { refuseSync, startSync } from './start-sync.js';

export interface HttpPart {
  server: FastifyInstance;
  /** The URL clients reach this server at (base/reachable-url.ts): server.json, the printed lines, links. */
  listenUrl: () => string;
  sessions: Sessions;
  /** Undefined in the scale-out mode, which refuses sync folders. */
  syncService: SyncService | undefined;
}

/**
 * The HTTP server with every route, and sync folders. Registered in this order, so closed the other way:
 * the event streams end first (a window sees its stream end, not cut), then sync stops, then the server,
 * then what its requests use (sign-in pages, and below them the domains and stores).
 */
export async function startHttp(start: StartContext, storage: Storage, domains: AppDomains): Promise<HttpPart> {
  const { config, stack } = start;
  // The server is built just below: nothing asks for its URL before it listens.
  const sessions = await startSessions(start, domains.accounts, () => listenUrl());
  const server = stack.use(
    await buildServer({
      config,
      // `public_gateway` applies at a start: the routes below are registered by it, once.
      publicGateway: storage.settings.current().public_gateway,
      clock: start.clock,
      logger: start.logger,
      accounts: domains.accounts,
      ownerAccountId: domains.owner.ownerAccountId,
    }),
  );
  const listenUrl = (): string => reachableUrl(config.host, server.server.address());
  await apiRoutes(start, server, { storage, domains, sessions, listenUrl });
  await start.started('http-server');

  const syncService = await startSyncFolders(start, server, storage, domains);
  await start.started('sync');
  eventRoutes(server, domains.events);
  // The hub has run nothing before: its streams open with this route. Registered last, they end first.
  stack.use(domains.events);
  await start.started('event-streams');

  await contentRoutes(start, server, storage, domains);
  return { server, listenUrl, sessions, syncService };
}

/**
 * Sync folders watch this machine's disk and keep one runner per folder: a desktop, single-instance
 * feature. With the metadata in PostgreSQL (`--db`), several instances may share it, so it is refused.
 */
async function startSyncFolders(start: StartContext, server: FastifyInstance, storage: Storage, domains: AppDomains): Promise<SyncService | undefined> {
  if (storage.metadata.engine !== 'sqlite') {
    refuseSync(server);
    return undefined;
  }
  const { followTiming } = start.init;
  return startSync(start.stack, {
    server,
    store: domains.accounts.store,
    blockstore: domains.content.blocks,
    pins: domains.pinWork.pins,
    names: domains.names,
    folders: domains.folders,
    logger: start.logger,
    clock: start.clock,
    profile: storage.profile,
    events: domains.events,
    fetcher: domains.content.fetcher,
    ...(followTiming ? { followTiming } : {}),
  });
}

interface ApiRouteDeps {
  storage: Storage;
  domains: AppDomains;
  sessions: Sessions;
  listenUrl: () => string;
}

/** The API's routes: accounts, sessions, the service, settings, pins (and the PSA), names, folders. */
async function apiRoutes(start: StartContext, server: FastifyInstance, deps: ApiRouteDeps): Promise<void> {
  const { config } = start;
  const { accounts, owner, pinWork, names } = deps.domains;
  const { listenUrl } = deps;
  const { coordination } = deps.storage.metadata;
  planRoutes(server, accounts.plans);
  accountRoutes(server, accounts, owner.ownerKey?.access_key ?? null);
  const { signInCodes: codes, handoffs } = deps.sessions;
  sessionRoutes(server, { accounts, codes, handoffs, ownerAccountId: owner.ownerAccountId, listenUrl });
  const gcLeader = (): boolean => pinWork.gcSchedule.leads();
  const { settings, network } = deps.storage;
  serviceRoutes(server, { config, settings, version: packageVersion(), startedAt: start.startedAt, listenUrl, gcLeader });
  if (start.init.runToken !== undefined) runProofRoutes(server, start.init.runToken);
  uploadSettingsRoutes(server, settings);
  settingsRoutes(server, { settings, network });
  partnerRoutes(server, accounts);
  pinRoutes(server, { pins: pinWork.pins, collectGarbage: pinWork.runGc });
  // No fetch of missing blocks runs yet, so no pin has heard from a source: every `pinning` pin is `queued`.
  await psaRoutes(server, { psa: { pins: pinWork.pins }, listenUrl, host: config.host, logger: start.logger });
  nameRoutes(server, names);
  if (settings.current().public_gateway) {
    // The routing API is served only by a public gateway: it names this gateway as a provider.
    const loadIdentity = () => loadPeerIdentity(accounts.store.meta, accounts.box);
    const identity = coordination ? await coordination.setupLock.exclusive(loadIdentity) : await loadIdentity();
    routingRoutes(server, { blocks: deps.domains.content.blocks, names, clock: start.clock, peerId: identity.peerId, listenUrl });
  }
  folderRoutes(server, deps.domains.folders);
}
