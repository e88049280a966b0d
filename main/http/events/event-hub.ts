import type { ServerResponse } from 'node:http';
import { EVENT_STREAM_RETRY_MS, type AccountUsage, type SyncFolderView } from '../../../shared/api-types.js';
import { unixSeconds, type Clock } from '../../base/clock.js';
import { TooManyRequestsError } from '../../base/errors.js';
import type { AccountEvents } from '../../accounts/account-events.js';
import type { NameEvents } from '../../names/name-events.js';
import type { PinEvents } from '../../pins/pin-events.js';
import type { SyncEvents } from '../../sync/sync-events.js';
import { createCoalescedNotices, readThenSend } from './coalesced-notices.js';
import { domainPublishers } from './domain-publishers.js';
import { openEventStream, type EventStream, type StreamClient } from './event-stream.js';
import { sseComment, sseEvent, sseRetry } from './sse-format.js';
import { StreamRegistry } from './stream-registry.js';
import { StreamTimers } from './stream-timers.js';

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

export function createEventHub(init: EventHubInit): EventHub {
  const maxStreamsPerKey = init.maxStreamsPerKey ?? MAX_STREAMS_PER_KEY;
  const maxQueued = init.maxQueued ?? 256;
  const streams = new StreamRegistry<EventStream>();
  let closing = false;

  // Every write checks the session's expiry on the injected clock too, not only the timer set at connect.
  const deliver = (stream: EventStream, text: string, latestKey?: string): void => {
    if (stream.expiresAt !== null && unixSeconds(init.clock) >= stream.expiresAt) stream.close();
    else stream.send(text, latestKey);
  };
  const deliverAll = (to: EventStream[], text: string): void => {
    for (const stream of to) deliver(stream, text);
  };
  const timers = new StreamTimers(init.keepAliveMs ?? KEEP_ALIVE_MS, () => deliverAll(streams.all(), sseComment('keep-alive')));
  const notices = createCoalescedNotices(init, streams, deliver);
  const publishers = domainPublishers({ streams, notices, deliverAll, partnerNotices: init.partnerOf !== undefined });

  const forget = (stream: EventStream): void => {
    if (streams.remove(stream)) notices.usage.cancel(stream.accountId);
    timers.forgetExpiry(stream);
    if (streams.isEmpty) timers.stopKeepAlive();
  };

  return {
    checkRoom(accessKey) {
      if (streams.openWithKey(accessKey) >= maxStreamsPerKey)
        throw new TooManyRequestsError(`at most ${maxStreamsPerKey} event streams may be open at once per access key`);
    },

    open(response, client) {
      if (closing) throw new Error('event streams are closed');
      const stream: EventStream = openEventStream(response, client, { maxQueued, onClose: () => forget(stream) });
      streams.add(stream);
      timers.watchExpiry(stream, init.clock.nowMs());
      timers.startKeepAlive();
      stream.send(sseRetry(EVENT_STREAM_RETRY_MS));
      readThenSend(init.usageOf(client.accountId), (stats) => {
        if (stats !== null) stream.send(sseEvent('usage', stats), 'usage');
      });
      return stream;
    },

    openStreams: () => streams.count(),
    ...publishers,

    close() {
      closing = true;
      notices.close();
      timers.stopKeepAlive();
      for (const stream of streams.all()) stream.close();
    },
  };
}
