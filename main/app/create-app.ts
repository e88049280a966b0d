import type { FastifyInstance } from 'fastify';
import type { SignInCode } from '../../shared/api-types.js';
import { unixSeconds } from '../base/clock.js';
import type { ServiceConfig } from '../base/config.js';
import { writeServerFile } from './server-file.js';
import type { OwnerKey } from '../accounts/owner-key.js';
import { signInUrl } from '../http/sign-in-handoff.js';
import type { ServiceSettings } from '../http/settings-catalog.js';
import type { GcResult } from '../pins/gc.js';
import type { SyncService } from '../sync/sync-service.js';
import type { AppInit } from './app-init.js';
import { startDomains, type AppDomains } from './app-domains.js';
import { openStorage, type Storage } from './open-storage.js';
import { startContext, type StartContext } from './start-context.js';
import { startHttp, type HttpPart } from './start-http.js';

export type { OwnerKey, OwnerKeyStore } from '../accounts/owner-key.js';
export type { AppInit } from './app-init.js';

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
  /** The data folder's settings.json under the run's flags, as in use (docs/settings.md). */
  readonly settings: ServiceSettings;
  /** Starts accepting requests on the port in use (the settings' `port`); resolves to the base URL, e.g. http://127.0.0.1:5080. */
  listen(): Promise<string>;
  /**
   * Closes everything the start opened, the last started first (the data folder's lock last); goes on past
   * a part that fails to close and then throws a DisposalError of every failure. A second call waits on the first.
   */
  close(): Promise<void>;
  /** One garbage-collection cycle now (also run every --gc-interval). */
  collectGarbage(): Promise<GcResult>;
  /** A one-time sign-in code for the owner and its link (`pinfold serve` prints it); call after listen(). */
  issueSignInCode(): SignInCode;
  nowSeconds(): number;
}

/**
 * The composition root: the one module that sees every domain and wires them together. Whatever runs on
 * its own (timers, runners, stores, the server, watchers) is registered on one disposal stack as it starts:
 * a start that fails halfway closes what it had started, in reverse, before it throws.
 */
export async function createApp(init: AppInit): Promise<PinfoldApp> {
  const start = startContext(init);
  try {
    const storage = await openStorage(start);
    // The event hub asks sync for a folder's row; sync starts last, with the server.
    let syncService: SyncService | undefined;
    const domains = await startDomains(start, storage, async (accountId, folderId) => syncService?.status(accountId, folderId));
    const http = await startHttp(start, storage, domains);
    syncService = http.syncService;
    await start.started('ready');
    return pinfoldApp(start, storage, domains, http);
  } catch (error) {
    // The start's own error is the one to report; a part that also fails to close is logged.
    await start.stack.disposeAsync().catch((closeError: unknown) => start.logger.error('closing a failed start failed', { error: closeError }));
    throw error;
  }
}

function pinfoldApp(start: StartContext, storage: Storage, domains: AppDomains, http: HttpPart): PinfoldApp {
  const { config, clock } = start;
  const { owner } = domains;
  const { server, listenUrl } = http;
  return {
    config,
    ownerKey: owner.ownerKey,
    ownerKeyCreated: owner.created,
    ownerKeyLocation: owner.location,
    sharedNotes: storage.sharedNotes,
    secretsLocation: storage.secrets.description,
    secretsNote: storage.secrets.note,
    server,
    settings: storage.settings,
    async listen() {
      // `port` applies at a start: the value this run started with, whatever was saved since.
      await server.listen({ host: config.host, port: storage.settings.current().port });
      // The same URL the upload addresses are built on, and the one `pinfold serve` prints.
      const url = listenUrl();
      // Where `pinfold gc` and `pinfold sync` (the commands beside a running server) find it; removed on close.
      await writeServerFile(config.dataDir, url);
      return url;
    },
    close: () => start.stack.disposeAsync(),
    collectGarbage: domains.pinWork.runGc,
    issueSignInCode() {
      const issued = http.sessions.signInCodes.issue();
      return { code: issued.code, url: signInUrl(listenUrl(), issued.code), expires_at: issued.expiresAt };
    },
    nowSeconds: () => unixSeconds(clock),
  };
}
