import type { SyncFolderView } from '../../shared/api-types.js';
import type { ChangePublisher } from '../base/changes.js';
import type { AccountsContext } from '../accounts/context.js';
import { createEgressMeter } from '../accounts/egress-meter.js';
import { createKeyCache } from '../accounts/key-cache.js';
import { ensureOwner, ownerKeyFromEnv, type OwnerSetup } from '../accounts/owner-key.js';
import { loadPlanCatalog } from '../accounts/plans.js';
import { accountUsage, currentUsage, record } from '../accounts/usage.js';
import { createEventHub, type EventHub } from '../http/events/event-hub.js';
import { placeOnThisHost } from './instance-secrets.js';
import type { StartContext } from './start-context.js';
import type { Storage } from './open-storage.js';

/**
 * Changes other instances must hear of (`--db`). The domains get the publisher now; the channel behind it
 * opens later (start-names.ts), once the caches it keeps coherent exist. Undefined with one instance.
 */
export interface ChangeRelay {
  publisher: ChangePublisher | undefined;
  connect(channel: ChangePublisher): void;
}

function changeRelay(shared: boolean): ChangeRelay {
  let channel: ChangePublisher | null = null;
  return {
    publisher: shared ? { published: (change) => channel?.published(change) } : undefined,
    connect: (opened) => void (channel = opened),
  };
}

export interface AccountsPart {
  /** The window's live events (GET /api/v0/events); its streams open with the server (start-http.ts). */
  events: EventHub;
  accounts: AccountsContext;
  owner: OwnerSetup;
  changes: ChangeRelay;
}

/** A sync folder's row for the event hub; sync starts last, so the hub asks through this. */
export type SyncFolderOf = (accountId: number, folderId: string) => Promise<SyncFolderView | undefined>;

/** The accounts domain over the metadata, the live events each domain publishes to, and the owner account. */
export async function startAccounts(start: StartContext, storage: Storage, syncFolderOf: SyncFolderOf): Promise<AccountsPart> {
  const { config, clock, logger, stack } = start;
  const { store, coordination } = storage.metadata;
  // Each domain gets the part it publishes. The hub asks back for usage, partners and sync status only when
  // it publishes to a stream, and no stream opens before the server listens.
  const events = createEventHub({
    clock,
    async usageOf(accountId) {
      const account = await store.accounts.accountById(accountId);
      return account ? accountUsage(accounts, account, await currentUsage(accounts, store, account.id)) : null;
    },
    syncFolderOf,
    async partnerOf(accountId) {
      const account = await store.accounts.accountById(accountId);
      return account && account.partnerId !== null ? { partnerId: account.partnerId, uuid: account.uuid } : null;
    },
  });
  const changes = changeRelay(coordination !== null);
  // Registered after the metadata store: its last flush is written before the store closes.
  const egressMeter = stack.use(
    createEgressMeter(
      store,
      (tx, accountId, bytes) => record(accounts, tx, accountId, 'egress', bytes),
      (error) => logger.error('writing metered egress failed', { error }),
    ),
  );
  const accounts: AccountsContext = {
    store,
    ...(changes.publisher ? { changes: changes.publisher } : {}),
    plans: loadPlanCatalog(config.dataDir),
    box: storage.box,
    clock,
    keyCache: createKeyCache(),
    egressMeter,
    events,
  };
  const owner = await ensureOwner(
    accounts,
    storage.secrets.ownerKeyStore,
    ownerKeyFromEnv(start.env),
    coordination ? { home: placeOnThisHost(storage.secrets.ownerKeyStore.description) } : undefined,
  );
  if (coordination !== null && owner.ownerKey === null) {
    storage.sharedNotes.push(`Owner access key: made by the first instance on this database, in ${owner.location}; this instance made none`);
  }
  await start.started('accounts');
  return { events, accounts, owner, changes };
}
