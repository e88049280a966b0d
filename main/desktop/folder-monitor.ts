import type { AccountUsage, SyncFolderView } from '../../shared/api-types.js';
import { EVENT_STREAM_RETRY_MS } from '../../shared/api-types.js';
import { createSseParser } from '../../shared/sse-parser.js';
import { isSyncFolderView, type LocalApi } from './local-api.js';
import type { ServiceStatusSource } from './service-status.js';

/**
 * What the shell knows of the service's content: the sync folders and the account's usage, kept live
 * from `GET /api/v0/sync` and the `sync` and `usage` events of `GET /api/v0/events` (no polling). It
 * connects while the service runs, reconnects after a broken stream, and keeps the last rows it knew
 * through a restart, so a change that happened meanwhile is still seen as a change.
 */
export interface ServiceContent {
  /** Null until the first list arrived. */
  readonly folders: readonly SyncFolderView[] | null;
  /** Null until the first usage event arrived. */
  readonly usage: AccountUsage | null;
}

export interface FolderMonitor {
  current(): ServiceContent;
  onChange(listener: (content: ServiceContent) => void): () => void;
  /** Reads the folder list again now (after the shell changed something), whatever the stream says. */
  refresh(): Promise<void>;
  stop(): void;
}

export interface FolderMonitorInit {
  api: LocalApi;
  status: ServiceStatusSource;
  /** Wait before reconnecting a broken stream. */
  retryMs?: number;
  onError?: (error: unknown) => void;
}

export function watchServiceContent(init: FolderMonitorInit): FolderMonitor {
  const retryMs = init.retryMs ?? EVENT_STREAM_RETRY_MS;
  const listeners = new Set<(content: ServiceContent) => void>();
  let folders: Map<string, SyncFolderView> | null = null;
  let usage: AccountUsage | null = null;
  let connection: AbortController | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const content = (): ServiceContent => ({ folders: folders === null ? null : [...folders.values()], usage });
  const emit = () => {
    const snapshot = content();
    for (const listener of [...listeners]) listener(snapshot);
  };
  const report = (error: unknown) => init.onError?.(error);

  const applyList = (rows: SyncFolderView[]) => {
    folders = new Map(rows.map((row) => [row.id, row]));
    emit();
  };

  const applyEvent = (type: string, data: string) => {
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      return;
    }
    if (type === 'usage' && typeof payload === 'object' && payload !== null) {
      usage = payload as AccountUsage;
      emit();
    } else if (type === 'sync' && folders !== null) {
      const removed = payload as { id?: unknown; removed?: unknown };
      if (removed?.removed === true && typeof removed.id === 'string') {
        if (folders.delete(removed.id)) emit();
      } else if (isSyncFolderView(payload)) {
        folders.set(payload.id, payload);
        emit();
      }
    }
  };

  const readStream = async (stream: ReadableStream<Uint8Array>) => {
    const parser = createSseParser();
    const decoder = new TextDecoder();
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
      for (const output of parser.push(decoder.decode(chunk, { stream: true }))) {
        if (output.kind === 'event') applyEvent(output.event, output.data);
      }
    }
  };

  const connect = () => {
    if (stopped || connection !== null || init.status.current().state !== 'running') return;
    const controller = new AbortController();
    connection = controller;
    void (async () => {
      try {
        // The stream first, then the list: a change between the two arrives as an event after the list.
        const stream = await init.api.openEvents(controller.signal);
        applyList(await init.api.syncFolders());
        await readStream(stream);
      } catch (error) {
        if (!controller.signal.aborted) report(error);
      } finally {
        if (connection === controller) connection = null;
        if (!controller.signal.aborted) scheduleReconnect();
      }
    })();
  };

  const scheduleReconnect = () => {
    if (stopped || retry !== null) return;
    retry = setTimeout(() => {
      retry = null;
      connect();
    }, retryMs);
  };

  const disconnect = () => {
    connection?.abort();
    connection = null;
    if (retry !== null) clearTimeout(retry);
    retry = null;
  };

  const unsubscribe = init.status.onChange((status) => {
    if (status.state === 'running') connect();
    else disconnect();
  });
  connect();

  return {
    current: content,
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async refresh() {
      if (init.status.current().state !== 'running') return;
      applyList(await init.api.syncFolders());
    },
    stop() {
      stopped = true;
      unsubscribe();
      disconnect();
    },
  };
}
