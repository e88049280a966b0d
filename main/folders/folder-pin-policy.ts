import { check } from '../accounts/usage.js';
import { ConflictError } from '../base/errors.js';
import { cumulativeSize } from '../content/directory/blocks.js';
import { walkDagBlocks } from '../content/walk/walk-dag.js';
import type { PinsContext } from '../pins/context.js';
import { addPin, isCompletePin, isPinned, isReachedByOtherPin, removePin } from '../pins/pins.js';
import type { Blocks } from '../store/blocks.js';
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
    checkPinChanges(accountId, changes) {
      // Limits first, before the operation writes a single block (contract section 3: a refused call changes nothing).
      if (!changes.pin || isPinned(pins, accountId, changes.pin)) return;
      check(pins.accounts, accountId, 'pinned_count', 1);
      if (changes.pinBytes !== undefined) check(pins.accounts, accountId, 'pinned_bytes', changes.pinBytes);
    },
    async applyPinChanges(accountId, changes) {
      if (changes.pin) {
        // The new root of a folder operation is complete when every part it is made of is pinned
        // complete; then its size is the cumulative size its links carry, and no walk of what may be
        // millions of entries is needed. A part still `pinning` leaves the new pin to walk (and wait).
        const complete = (changes.pinParts ?? []).length > 0 && (changes.pinParts ?? []).every((part) => isCompletePin(pins, accountId, part));
        const bytes = changes.pinBytes ?? (await cumulativeSize(blocks, changes.pin, 'cid'));
        await addPin(pins, accountId, changes.pin, complete ? { census: { bytes, missing: 0 } } : {});
      }
      if (changes.unpin) removePin(pins, accountId, changes.unpin);
    },
  };
}
