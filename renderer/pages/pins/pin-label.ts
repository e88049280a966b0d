import type { PinRecord } from '../../../shared/api-types.js';
import { middleEllipsis } from '../../lib/format.js';

/** What a pin is called in buttons and messages: its name, or its shortened CID. */
export function pinLabel(pin: Pick<PinRecord, 'name' | 'cid'>): string {
  return pin.name || middleEllipsis(pin.cid);
}
