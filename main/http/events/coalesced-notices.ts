import type { AccountUsage, SyncFolderView } from '../../../shared/api-types.js';
import type { EventStream } from './event-stream.js';
import { createKeyedThrottle, type KeyedThrottle } from './keyed-throttle.js';
import { sseEvent } from './sse-format.js';
import type { StreamRegistry } from './stream-registry.js';

/**
 * The event hub's coalesced notices: `usage` at most once an interval per account, `sync` per folder,
 * and `partner` per user. Each is read when it is sent, so a burst of changes costs one read.
 */

export interface NoticeSources {
  usageOf(accountId: number): Promise<AccountUsage | null>;
  syncFolderOf(accountId: number, folderId: string): Promise<SyncFolderView | undefined>;
  partnerOf?(accountId: number): Promise<{ partnerId: number; uuid: string } | null>;
  usageIntervalMs?: number;
  syncIntervalMs?: number;
}

/** Writes to one stream (the hub checks the session's expiry first). */
export type Deliver = (stream: EventStream, text: string, latestKey?: string) => void;

export interface CoalescedNotices {
  /** Keyed by account id. */
  usage: KeyedThrottle<number>;
  /** Keyed by `folderKey(accountId, folderId)`. */
  sync: KeyedThrottle<string>;
  /** Keyed by the user's account id; its partner is looked up when the notice is sent. */
  partner: KeyedThrottle<number>;
  close(): void;
}

/**
 * What is sent is read when it is sent; a read that fails sends nothing (the stream hears of the next
 * change), and must not reach the domain that only said something changed.
 */
export function readThenSend<T>(read: Promise<T>, send: (value: T) => void): void {
  read.then(send, () => undefined);
}

export const folderKey = (accountId: number, folderId: string): string => `${accountId}:${folderId}`;

export function createCoalescedNotices(sources: NoticeSources, streams: StreamRegistry<EventStream>, deliver: Deliver): CoalescedNotices {
  const usage = createKeyedThrottle(sources.usageIntervalMs ?? 1000, (accountId: number) => {
    const open = streams.streamsOf(accountId);
    if (open.length === 0) return;
    readThenSend(sources.usageOf(accountId), (stats) => {
      if (stats === null) return;
      const text = sseEvent('usage', stats);
      for (const stream of open) deliver(stream, text, 'usage');
    });
  });
  const sync = createKeyedThrottle(sources.syncIntervalMs ?? 250, (key: string) => {
    const at = key.indexOf(':');
    const accountId = Number(key.slice(0, at));
    const folderId = key.slice(at + 1);
    const open = streams.ownerStreamsOf(accountId);
    if (open.length === 0) return;
    readThenSend(sources.syncFolderOf(accountId, folderId), (row) => {
      if (row === undefined) return;
      const text = sseEvent('sync', row);
      for (const stream of open) deliver(stream, text, `sync:${folderId}`);
    });
  });
  // Read when sent, like usage: a user's burst of uploads costs its partner one lookup and one event a second.
  const partner = createKeyedThrottle(sources.usageIntervalMs ?? 1000, (accountId: number) => {
    if (!sources.partnerOf) return;
    readThenSend(sources.partnerOf(accountId), (made) => {
      if (!made || !streams.hasAccount(made.partnerId)) return;
      const text = sseEvent('partner', { uuid: made.uuid });
      for (const stream of streams.streamsOf(made.partnerId)) deliver(stream, text);
    });
  });
  return {
    usage,
    sync,
    partner,
    close() {
      usage.close();
      sync.close();
      partner.close();
    },
  };
}
