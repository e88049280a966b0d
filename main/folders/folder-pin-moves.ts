import { NotFoundError } from '../base/errors.js';
import type { LockHold } from '../base/lock.js';
import type { PinsContext } from '../pins/context.js';
import { addPinHeld, isCompletePin, removePin } from '../pins/pins.js';
import type { CID } from 'multiformats/cid';
import type { PinRow } from '../store/repositories/pins.js';
import type { FolderPinChanges } from './folder-pins.js';

/**
 * The one way a folder root's pins move, for folder operations (`pin_new`, `unpin_old`) and sync
 * folders alike: the new root is pinned, then the old one unpinned. The caller holds the GC lock, so
 * the new root's blocks cannot be collected between its census and its pin.
 *
 * - A new root made only of complete pins is complete too: with its cumulative size known
 *   (`pinBytes`), it is pinned without a walk of what may be millions of entries. Otherwise its DAG
 *   is walked (and a part still `pinning` leaves the new pin waiting as well).
 * - Unpinning is idempotent: an old root that has no pin (already unpinned, or dropped by GC since
 *   the caller checked) is what was asked for.
 *
 * Returns the new root's pin row, when a pin was asked for.
 */
export async function moveFolderPins(pins: PinsContext, hold: LockHold, accountId: number, changes: FolderPinChanges): Promise<PinRow | undefined> {
  let row: PinRow | undefined;
  if (changes.pin) {
    const parts = changes.pinParts ?? [];
    const complete = parts.length > 0 && (await everyPartComplete(pins, accountId, parts));
    const census = complete && changes.pinBytes !== undefined ? { bytes: changes.pinBytes, missing: 0 } : undefined;
    row = await addPinHeld(pins, hold, accountId, changes.pin, { census, name: changes.name });
  }
  if (changes.unpin) await unpinIfPinned(pins, accountId, changes.unpin);
  return row;
}

async function everyPartComplete(pins: PinsContext, accountId: number, parts: readonly CID[]): Promise<boolean> {
  for (const part of parts) if (!(await isCompletePin(pins, accountId, part))) return false;
  return true;
}

async function unpinIfPinned(pins: PinsContext, accountId: number, cid: NonNullable<FolderPinChanges['unpin']>): Promise<void> {
  try {
    await removePin(pins, accountId, cid);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
}
