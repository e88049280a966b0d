import type { AccountsContext } from '../accounts/context.js';
import type { OwnerSetup } from '../accounts/owner-key.js';
import { createFoldersContext, type FoldersContext } from '../folders/index.js';
import { folderPinPolicy } from '../folders/folder-pin-policy.js';
import type { EventHub } from '../http/events/event-hub.js';
import type { NamesContext } from '../names/context.js';
import { openContent, type ContentPart } from './open-content.js';
import type { Storage } from './open-storage.js';
import { startAccounts, type SyncFolderOf } from './start-accounts.js';
import type { StartContext } from './start-context.js';
import { startNames } from './start-names.js';
import { startPinWork, type PinWork } from './start-pin-work.js';

/** Every domain over the storage, with what each runs in the background. */
export interface AppDomains {
  events: EventHub;
  accounts: AccountsContext;
  owner: OwnerSetup;
  content: ContentPart;
  pinWork: PinWork;
  names: NamesContext;
  folders: FoldersContext;
}

/**
 * Builds the domains bottom up, each over the ones below it (accounts, blocks and the network, pins,
 * names, folders); so each closes before what it uses. `syncFolderOf` answers the event hub once sync runs.
 */
export async function startDomains(start: StartContext, storage: Storage, syncFolderOf: SyncFolderOf): Promise<AppDomains> {
  const { events, accounts, owner, changes } = await startAccounts(start, storage, syncFolderOf);
  const content = await openContent(start, storage, accounts);
  const pinWork = await startPinWork(start, storage, { accounts, events, content });
  const names = await startNames(start, storage, { accounts, events, changes, content, pins: pinWork.pins });
  const folders = await createFoldersContext({
    store: accounts.store,
    blockstore: content.blocks,
    clock: start.clock,
    layout: () => storage.profile().directory,
    pins: folderPinPolicy(pinWork.pins, content.blocks),
  });
  return { events, accounts, owner, content, pinWork, names, folders };
}
