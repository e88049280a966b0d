import type { ServerResponse } from 'node:http';
import { EVENT_STREAM_RETRY_MS, type AccountUsage, type SyncFolderView } from '../../../shared/api-types.js';
import { unixSeconds, type Clock } from '../../base/clock.js';
import { TooManyRequestsError } from '../../base/errors.js';
import type { AccountEvents } from '../../accounts/account-events.js';
import type { NameEvents } from '../../names/name-events.js';
import type { PinEvents } from '../../pins/pin-events.js';
import type { SyncEvents } from '../../sync/sync-events.js';
import { openEventStream, type EventStream, type StreamClient } from './event-stream.js';
import { createKeyedThrottle } from './keyed-throttle.js';
import { sseComment, sseEvent, sseRetry } from './sse-format.js';

/**
 * The live event streams of `GET /api/v0/events` (issue 12, api12.md section 4), and the publisher the
 * domains call: every event goes to the streams of its account only; `sync` only to the owner's.
 * `usage` is coalesced to one a second per account and `sync` to four a second per folder, and both are
 * read when sent, so a burst of changes costs one read. A stream closes when its key is deleted or its
 * session expires; each access key may hold a few open at once. A partner's streams also hear of the
 * users it created (`partner`, at most one a second per user): their creation, plan, keys and usage all
 * arrive here as the user's own usage or key notices, so the domains need not know who watches them.
 * It implements what each domain publishes (AccountEvents, PinEvents, NameEvents, SyncEvents, declared in
 * their domains); the composition root hands each domain its own part, so there is no global bus.
 */

export interface EventHubInit {
  /** The account's stats as GET /api/v0/stats answers them; null when the account is gone. */
  usageOf(accountId: number): Promise<AccountUsage | null>;
  /** A sync folder's row as GET /api/v0/sync lists it; undefined when the account has no such folder. */
  syncFolderOf(accountId: number, folderId: string): Promise<SyncFolderView | undefined>;
  /** The partner that created the account, and the account's uuid; null for an account no partner made. */
  partnerOf?(accountId: number): Promise<{ partnerId: number; uuid: string } | null>;
  clock: Clock;
  maxStreamsPerKey?: number;
  keepAliveMs?: number;
  usageIntervalMs?: number;
  syncIntervalMs?: number;
  /** Messages that may wait for a slow client beyond the latest usage and folder states. */
  maxQueued?: number;
}

export interface EventHub extends AccountEvents, PinEvents, NameEvents, SyncEvents {
  /** 429 (TooManyRequestsError) when the key has its most streams open already; call before answering. */
  checkRoom(accessKey: string): void;
  /** Runs a stream on a response whose head is written: `retry`, the usage at connect, then the events. */
  open(response: ServerResponse, client: StreamClient): EventStream;
  /** How many streams are open (all accounts). */
  openStreams(): number;
  /** Ends every stream and stops every timer (shutdown). */
  close(): void;
}

export const MAX_STREAMS_PER_KEY = 8;
export const KEEP_ALIVE_MS = 25_000;
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * What is sent is read when it is sent; a read that fails sends nothing (the stream hears of the next
 * change), and must not reach the domain that only said something changed.
 */
function readThenSend<T>(read: Promise<T>, send: (value: T) => void): void {
  read.then(send, () => undefined);
}

export function createEventHub(init: EventHubInit): EventHub {
  const maxStreamsPerKey = init.maxStreamsPerKey ?? MAX_STREAMS_PER_KEY;
  const maxQueued = init.maxQueued ?? 256;
  const byAccount = new Map<number, Set<EventStream>>();
  const perKey = new Map<string, number>();
  const expiryTimers = new Map<EventStream, NodeJS.Timeout>();
  let keepAlive: NodeJS.Timeout | undefined;
  let closing = false;

  const streamsOf = (accountId: number): EventStream[] => [...(byAccount.get(accountId) ?? [])];
  const expired = (stream: EventStream): boolean => stream.expiresAt !== null && unixSeconds(init.clock) >= stream.expiresAt;
  // Every write checks the session's expiry on the injected clock too, not only the timer set at connect.
  const deliver = (stream: EventStream, text: string, latestKey?: string): void => {
    if (expired(stream)) stream.close();
    else stream.send(text, latestKey);
  };

  const usage = createKeyedThrottle(init.usageIntervalMs ?? 1000, (accountId: number) => {
    const streams = streamsOf(accountId);
    if (streams.length === 0) return;
    readThenSend(init.usageOf(accountId), (stats) => {
      if (stats === null) return;
      const text = sseEvent('usage', stats);
      for (const stream of streams) deliver(stream, text, 'usage');
    });
  });
  const ownerStreamsOf = (accountId: number): EventStream[] => streamsOf(accountId).filter((stream) => stream.isOwner);
  const folderKey = (accountId: number, folderId: string): string => `${accountId}:${folderId}`;
  const sync = createKeyedThrottle(init.syncIntervalMs ?? 250, (key: string) => {
    const at = key.indexOf(':');
    const accountId = Number(key.slice(0, at));
    const folderId = key.slice(at + 1);
    const streams = ownerStreamsOf(accountId);
    if (streams.length === 0) return;
    readThenSend(init.syncFolderOf(accountId, folderId), (row) => {
      if (row === undefined) return;
      const text = sseEvent('sync', row);
      for (const stream of streams) deliver(stream, text, `sync:${folderId}`);
    });
  });

  // Read when sent, like usage: a user's burst of uploads costs its partner one lookup and one event a second.
  const partnerNotice = createKeyedThrottle(init.usageIntervalMs ?? 1000, (accountId: number) => {
    if (!init.partnerOf) return;
    readThenSend(init.partnerOf(accountId), (made) => {
      if (!made || !byAccount.has(made.partnerId)) return;
      const text = sseEvent('partner', { uuid: made.uuid });
      for (const stream of streamsOf(made.partnerId)) deliver(stream, text);
    });
  });
  /** Any open stream may belong to the account's partner; which one is looked up only when the notice is sent. */
  const tellPartner = (accountId: number): void => {
    if (init.partnerOf && byAccount.size > 0) partnerNotice.request(accountId);
  };

  const broadcast = (accountId: number, text: string): void => {
    for (const stream of streamsOf(accountId)) deliver(stream, text);
  };

  const forget = (stream: EventStream): void => {
    const set = byAccount.get(stream.accountId);
    set?.delete(stream);
    if (set?.size === 0) {
      byAccount.delete(stream.accountId);
      usage.cancel(stream.accountId);
    }
    const left = (perKey.get(stream.accessKey) ?? 1) - 1;
    if (left > 0) perKey.set(stream.accessKey, left);
    else perKey.delete(stream.accessKey);
    const timer = expiryTimers.get(stream);
    if (timer) clearTimeout(timer);
    expiryTimers.delete(stream);
    if (byAccount.size === 0 && keepAlive) {
      clearInterval(keepAlive);
      keepAlive = undefined;
    }
  };

  return {
    checkRoom(accessKey) {
      if ((perKey.get(accessKey) ?? 0) >= maxStreamsPerKey)
        throw new TooManyRequestsError(`at most ${maxStreamsPerKey} event streams may be open at once per access key`);
    },

    open(response, client) {
      if (closing) throw new Error('event streams are closed');
      const stream: EventStream = openEventStream(response, client, { maxQueued, onClose: () => forget(stream) });
      let set = byAccount.get(client.accountId);
      if (!set) {
        set = new Set();
        byAccount.set(client.accountId, set);
      }
      set.add(stream);
      perKey.set(client.accessKey, (perKey.get(client.accessKey) ?? 0) + 1);
      if (client.expiresAt !== null) {
        const timer = setTimeout(() => stream.close(), Math.min(MAX_TIMER_MS, Math.max(0, client.expiresAt * 1000 - init.clock.nowMs())));
        timer.unref();
        expiryTimers.set(stream, timer);
      }
      if (!keepAlive) {
        keepAlive = setInterval(() => {
          const text = sseComment('keep-alive');
          for (const streams of [...byAccount.values()]) for (const each of [...streams]) deliver(each, text);
        }, init.keepAliveMs ?? KEEP_ALIVE_MS);
        keepAlive.unref();
      }
      stream.send(sseRetry(EVENT_STREAM_RETRY_MS));
      readThenSend(init.usageOf(client.accountId), (stats) => {
        if (stats !== null) stream.send(sseEvent('usage', stats), 'usage');
      });
      return stream;
    },

    openStreams: () => [...byAccount.values()].reduce((sum, set) => sum + set.size, 0),

    usageChanged(accountId) {
      if (byAccount.has(accountId)) usage.request(accountId);
      tellPartner(accountId);
    },
    pinChanged(accountId, pin) {
      if (byAccount.has(accountId)) broadcast(accountId, sseEvent('pin', pin));
    },
    nameChanged(accountId, name) {
      if (byAccount.has(accountId)) broadcast(accountId, sseEvent('name', name));
    },
    keyChanged(accountId, key) {
      if (byAccount.has(accountId)) broadcast(accountId, sseEvent('key', key));
      tellPartner(accountId);
      if (key.removed !== true || !perKey.has(key.access_key)) return;
      // A deleted key's streams end with it: they were authorized by it.
      for (const streams of [...byAccount.values()]) for (const stream of [...streams]) if (stream.accessKey === key.access_key) stream.close();
    },
    syncChanged(accountId, folderId, removed) {
      if (removed === true) {
        sync.cancel(folderKey(accountId, folderId));
        const text = sseEvent('sync', { id: folderId, removed: true });
        for (const stream of ownerStreamsOf(accountId)) deliver(stream, text);
        return;
      }
      if (ownerStreamsOf(accountId).length > 0) sync.request(folderKey(accountId, folderId));
    },

    close() {
      closing = true;
      usage.close();
      sync.close();
      partnerNotice.close();
      if (keepAlive) clearInterval(keepAlive);
      keepAlive = undefined;
      for (const streams of [...byAccount.values()]) for (const stream of [...streams]) stream.close();
    },
  };
}
