import type { ServiceFacts, SettingsChange, SettingsView, SignInHandoff, SyncAddResult, SyncFolderView } from '../../shared/api-types.js';
import type { OwnerKey } from '../accounts/owner-key.js';

/**
 * The main process as a client of the local service's HTTP API, as the owner: what the tray does
 * (pause, resume, add a folder, run GC, a sign-in page for the browser) goes through the same API,
 * checks and errors as every other client, whichever process runs the service.
 */

/** Where the service answers and the owner key to call it with; null while it does not run. */
export interface ServiceConnection {
  readonly url: string;
  readonly ownerKey: OwnerKey;
}

export type ConnectionSource = () => ServiceConnection | null;

/** A call that failed: `status` is the HTTP status, 0 when the service could not be reached at all. */
export class LocalApiError extends Error {
  override readonly name = 'LocalApiError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface LocalApi {
  syncFolders(): Promise<SyncFolderView[]>;
  pauseFolder(id: string): Promise<void>;
  resumeFolder(id: string): Promise<void>;
  /** Starts syncing a folder; answers at once while the first scan runs (`wait=false`). */
  addFolder(path: string): Promise<SyncAddResult>;
  collectGarbage(): Promise<void>;
  /**
   * The path of a one-time sign-in page for the browser (as `pinfold open` opens), leading to `next` when
   * given; its code signs in to the session of the links opened in the last minutes (`session=shared`).
   */
  signInPage(next?: string): Promise<string>;
  serviceFacts(): Promise<ServiceFacts>;
  /** Saves a change of the settings (settings.json, docs/settings.md); answers them all. */
  saveSettings(change: SettingsChange): Promise<SettingsView>;
  /** The open `GET /api/v0/events` response (a server-sent event stream), for the caller to read. */
  openEvents(signal: AbortSignal): Promise<ReadableStream<Uint8Array>>;
}

export interface LocalApiInit {
  fetch?: typeof fetch;
  /** Unix seconds for `ts`. */
  now?: () => number;
}

export function localApi(connection: ConnectionSource, init: LocalApiInit = {}): LocalApi {
  const fetchFn = init.fetch ?? fetch;
  const now = init.now ?? (() => Math.floor(Date.now() / 1000));

  const send = async (method: string, path: string, query: Record<string, string> = {}, body?: unknown, signal?: AbortSignal): Promise<Response> => {
    const current = connection();
    if (current === null) throw new LocalApiError(0, 'the Pinfold service is not running');
    const params = new URLSearchParams({ ...query, ts: String(now()) });
    try {
      return await fetchFn(`${current.url}${path}?${params.toString()}`, {
        method,
        headers: {
          'X-Access-Key': current.ownerKey.access_key,
          'X-Access-Secret': current.ownerKey.access_secret,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new LocalApiError(0, `cannot reach the Pinfold service at ${current.url}`);
    }
  };

  const call = async <T>(method: string, path: string, query: Record<string, string> = {}, body?: unknown): Promise<T> => {
    const response = await send(method, path, query, body);
    const envelope = (await response.json().catch(() => null)) as { code?: unknown; msg?: unknown; data?: unknown } | null;
    if (response.status !== 200) {
      const msg = typeof envelope?.msg === 'string' ? envelope.msg : response.statusText;
      throw new LocalApiError(response.status, msg);
    }
    return envelope?.data as T;
  };

  return {
    async syncFolders() {
      const rows = await call<unknown>('GET', '/api/v0/sync');
      if (!Array.isArray(rows) || !rows.every(isSyncFolderView)) throw new LocalApiError(502, 'the service answered sync folders of an unexpected shape');
      return rows;
    },
    async pauseFolder(id) {
      await call('POST', '/api/v0/sync/pause', { id });
    },
    async resumeFolder(id) {
      await call('POST', '/api/v0/sync/resume', { id });
    },
    async addFolder(path) {
      return call<SyncAddResult>('POST', '/api/v0/sync/add', { wait: 'false' }, { path });
    },
    async collectGarbage() {
      await call('POST', '/api/v0/repo/gc');
    },
    async signInPage(next) {
      const handoff = await call<SignInHandoff>('POST', '/api/v0/session/handoff', { session: 'shared', ...(next === undefined ? {} : { next }) });
      if (typeof handoff?.path !== 'string') throw new LocalApiError(502, 'the service answered no sign-in page');
      return handoff.path;
    },
    async serviceFacts() {
      return call<ServiceFacts>('GET', '/api/v0/service');
    },
    async saveSettings(change) {
      return call<SettingsView>('POST', '/api/v0/settings', {}, change);
    },
    async openEvents(signal) {
      const response = await send('GET', '/api/v0/events', {}, undefined, signal);
      if (response.status !== 200 || response.body === null) {
        const envelope = (await response.json().catch(() => null)) as { msg?: unknown } | null;
        throw new LocalApiError(response.status, typeof envelope?.msg === 'string' ? envelope.msg : 'the event stream did not open');
      }
      return response.body;
    },
  };
}

/** Enough of a sync row to rely on: the fields the tray and the notifications read. */
export function isSyncFolderView(value: unknown): value is SyncFolderView {
  if (typeof value !== 'object' || value === null) return false;
  const row = value as Record<string, unknown>;
  return (
    typeof row.id === 'string' &&
    typeof row.path === 'string' &&
    typeof row.root === 'string' &&
    typeof row.ipns_name === 'string' &&
    typeof row.state === 'string' &&
    typeof row.pending === 'number' &&
    typeof row.last_synced_at === 'number' &&
    typeof row.error === 'string'
  );
}
