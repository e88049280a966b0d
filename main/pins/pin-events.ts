import type { PinRecord, PinRemoved } from '../../shared/api-types.js';

/** What the pins domain tells the window's live event stream (issue 12) right after a change is committed. */
export interface PinEvents {
  /** A pin was added, changed status or name, or (`removed`) left the list. */
  pinChanged(accountId: number, pin: PinRecord | PinRemoved): void;
}
