import { check } from '../accounts/usage.js';
import { ConflictError } from '../base/errors.js';
import { walkDagBlocks } from '../content/walk/walk-dag.js';
import type { PinsContext } from '../pins/context.js';
import { isPinned, isReachedByOtherPin } from '../pins/pins.js';
import type { Blocks } from '../store/blocks.js';
import { moveFolderPins } from './folder-pin-moves.js';
import type { FolderPins } from './folder-pins.js';

/**
 * The folder rules' view of the pins domain (folder-pins.ts), over the account's pins and the blocks
 * their DAGs are made of: limits are checked before an operation writes a block, the new root is pinned
 * and the old one let go only when no other pin of the account still reaches it.
 */
export function folderPinPolicy(pins: PinsContext, blocks: Blocks): FolderPins {
  return {
    isPinned: (accountId, cid) => isPinned(pins, accountId, cid),
    isUsedByOtherPin: (accountId, cid) =>
      isReachedByOtherPin(pins, accountId, cid, async function* (root) {
        for await (const event of walkDagBlocks(blocks, root)) {
          if (event.kind === 'block') yield event.multihash;
          // Whether it reaches `cid` is unknown, so the old root is not let go.
          else if (event.kind === 'unreadable')
            throw new ConflictError(
              `unpin_old: cannot tell whether another pinned DAG still uses ${cid.toString()}: its block ${event.cid.toString()} cannot be read (${event.reason})`,
            );
        }
      }),
    async checkPinChanges(accountId, changes) {
      // Limits first, before the operation writes a single block (contract section 3: a refused call changes nothing).
      if (!changes.pin || (await isPinned(pins, accountId, changes.pin))) return;
      const { store } = pins.accounts;
      await check(pins.accounts, store, accountId, 'pinned_count', 1);
      if (changes.pinBytes !== undefined) await check(pins.accounts, store, accountId, 'pinned_bytes', changes.pinBytes);
    },
    // The one pin-move policy of folder roots (folder-pin-moves.ts), under the GC lock it asks for.
    applyPinChanges: async (accountId, changes) => void (await pins.gcLock.shared((hold) => moveFolderPins(pins, hold, accountId, changes))),
  };
}
