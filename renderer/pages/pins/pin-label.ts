import type { PinRecord } from '../../../shared/api-types.js';
import { middleEllipsis } from '../../lib/format.js';
import { syncVersionLabel } from '../../lib/sync-pins.js';

/**
 * What a pin is called in its row, buttons and messages: a sync folder's version as the folder and the
 * version's time, any other pin by its name, or its shortened CID.
 */
export function pinLabel(pin: Pick<PinRecord, 'name' | 'cid' | 'created_at'>): string {
  return syncVersionLabel(pin, Date.now()) ?? (pin.name || middleEllipsis(pin.cid));
}
