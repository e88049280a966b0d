import { CID } from 'multiformats/cid';
import { NotFoundError } from '../base/errors.js';
import type { LockHold } from '../base/lock.js';
import { moveFolderPins } from '../folders/index.js';
import type { PinsContext } from '../pins/context.js';
import { isPinned } from '../pins/pins.js';
import type { Store } from '../store/repositories/index.js';
import type { SyncDomains } from './runner.js';

/** How many sync folders (of any account) have `root` as their published root. */
async function foldersWithRoot(store: Store, root: string): Promise<number> {
  return (await store.sync.listSyncFolders()).filter((folder) => folder.rootCid === root).length;
}

/**
 * Moves a sync folder's root pin through the folders' pin-move policy, with the rules of sync roots:
 * the new root must be pinned complete (a journal replayed after GC may find blocks gone: the pin
 * this call made is undone and the journal dropped by the caller), and an old root that another sync
 * folder shares (two folders with the same content) keeps its pin.
 */
export function createSyncRootPins(store: Store, pins: PinsContext): SyncDomains['movePin'] {
  return async (accountId: number, newRoot: string, oldRoot: string | undefined, pinName: string, hold: LockHold): Promise<void> => {
    const cid = CID.parse(newRoot);
    const hadPin = await isPinned(pins, accountId, cid);
    const row = await moveFolderPins(pins, hold, accountId, { pin: cid, name: pinName });
    if (row?.status !== 'pinned') {
      // Blocks are missing (GC ran while a journal waited): undo the pin this call made.
      if (!hadPin) await moveFolderPins(pins, hold, accountId, { unpin: cid });
      throw new NotFoundError(`sync root ${newRoot}: blocks are missing`);
    }
    if (oldRoot === undefined || oldRoot === newRoot) return;
    if ((await foldersWithRoot(store, oldRoot)) <= 1) await moveFolderPins(pins, hold, accountId, { unpin: CID.parse(oldRoot) });
  };
}
