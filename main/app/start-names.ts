import type { EventHub } from '../http/events/event-hub.js';
import type { AccountsContext } from '../accounts/context.js';
import { record, reserve } from '../accounts/usage.js';
import { createNamesContext, type NamesContext } from '../names/context.js';
import { createNetworkPublisher } from '../names/network-publisher.js';
import { startRepublisher } from '../names/republish.js';
import { createNameRecordSources } from '../network/name-records.js';
import type { PinsContext } from '../pins/context.js';
import { addPin } from '../pins/pins.js';
import type { ChangeRelay } from './start-accounts.js';
import type { ContentPart } from './open-content.js';
import type { Storage } from './open-storage.js';
import type { StartContext } from './start-context.js';

export interface NamesParts {
  accounts: AccountsContext;
  events: EventHub;
  changes: ChangeRelay;
  content: ContentPart;
  pins: PinsContext;
}

/**
 * IPNS names and the network (contract section 11): public names' records go to the routing endpoints, and
 * a name held elsewhere is looked up there and at the fetch sources. Every instance on a shared database
 * publishes what changes on it, and all public names at start; a record put twice is no harm.
 */
export async function startNames(start: StartContext, storage: Storage, parts: NamesParts): Promise<NamesContext> {
  const { config, clock, logger, stack } = start;
  const { accounts, content } = parts;
  const network = storage.network;
  const publisher = stack.use(createNetworkPublisher({ names: accounts.store.names, routing: content.routing, clock, logger, ...start.init.namePublishing }));
  const names = createNamesContext({
    store: accounts.store,
    sealedBox: accounts.box,
    clock,
    limits: {
      reserveIpns: (tx, accountId) => reserve(accounts, tx, accountId, 'ipns', 1),
      releaseIpns: (tx, accountId) => record(accounts, tx, accountId, 'ipns', -1),
    },
    pinFirst: async (accountId, cid) => void (await addPin(parts.pins, accountId, cid, { parameter: 'arg' })),
    dnsResolver: config.dnsResolver,
    events: parts.events,
    ...(parts.changes.publisher ? { changes: parts.changes.publisher } : {}),
    network: publisher,
    networkRecords: createNameRecordSources({ settings: network, routing: content.routing, logger }),
    logger,
  });
  const publishAll = (): void => {
    publisher.publishAll().catch((error: unknown) => logger.error('publishing public names to the network failed', { error }));
  };
  // Other endpoints (or online again): they get every public name's record. Unsubscribed before the publisher closes.
  stack.defer(network.onChange(publishAll));
  publishAll();
  await start.started('name-publisher');

  await openChangeChannel(start, storage, { accounts, names, relay: parts.changes });
  await start.started('change-channel');

  stack.use(startRepublisher(names, logger));
  await start.started('republisher');
  return names;
}

/**
 * With several instances on one database (`--db`): what the others change reaches this one's caches. The
 * coordination owns the channel and closes it with the metadata store.
 */
async function openChangeChannel(
  start: StartContext,
  storage: Storage,
  parts: { accounts: AccountsContext; names: NamesContext; relay: ChangeRelay },
): Promise<void> {
  const { coordination } = storage.metadata;
  if (coordination === null) return;
  const { logger } = start;
  const { accounts, names } = parts;
  const rowCopies = storage.metadata;
  const channel = await coordination.changes({
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
  parts.relay.connect(channel);
}
