import type { AccountEvents } from '../../accounts/account-events.js';
import type { NameEvents } from '../../names/name-events.js';
import type { PinEvents } from '../../pins/pin-events.js';
import type { SyncEvents } from '../../sync/sync-events.js';
import { folderKey, type CoalescedNotices } from './coalesced-notices.js';
import type { EventStream } from './event-stream.js';
import { sseEvent } from './sse-format.js';
import type { StreamRegistry } from './stream-registry.js';

export type DomainPublishers = AccountEvents & PinEvents & NameEvents & SyncEvents;

export interface PublishersInit {
  streams: StreamRegistry<EventStream>;
  notices: CoalescedNotices;
  /** Writes to each stream, closing one whose session expired instead. */
  deliverAll: (to: EventStream[], text: string) => void;
  /** Whether anyone may hear of an account's partner notices (a partner is looked up only when one is sent). */
  partnerNotices: boolean;
}

/**
 * What each domain calls when something of an account changed: every event goes to the streams of its
 * account only, `sync` only to the owner's; usage, sync and partner notices are coalesced. Nothing is read
 * or written for an account with no stream open.
 */
export function domainPublishers({ streams, notices, deliverAll, partnerNotices }: PublishersInit): DomainPublishers {
  const tellPartner = (accountId: number): void => {
    if (partnerNotices && !streams.isEmpty) notices.partner.request(accountId);
  };
  return {
    usageChanged(accountId) {
      if (streams.hasAccount(accountId)) notices.usage.request(accountId);
      tellPartner(accountId);
    },
    pinChanged(accountId, pin) {
      if (streams.hasAccount(accountId)) deliverAll(streams.streamsOf(accountId), sseEvent('pin', pin));
    },
    nameChanged(accountId, name) {
      if (streams.hasAccount(accountId)) deliverAll(streams.streamsOf(accountId), sseEvent('name', name));
    },
    keyChanged(accountId, key) {
      if (streams.hasAccount(accountId)) deliverAll(streams.streamsOf(accountId), sseEvent('key', key));
      tellPartner(accountId);
      // A deleted key's streams end with it: they were authorized by it.
      if (key.removed === true) for (const stream of streams.streamsOfKey(key.access_key)) stream.close();
    },
    syncChanged(accountId, folderId, removed) {
      if (removed === true) {
        notices.sync.cancel(folderKey(accountId, folderId));
        deliverAll(streams.ownerStreamsOf(accountId), sseEvent('sync', { id: folderId, removed: true }));
        return;
      }
      if (streams.ownerStreamsOf(accountId).length > 0) notices.sync.request(folderKey(accountId, folderId));
    },
  };
}
