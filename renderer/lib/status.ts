/**
 * How pin and sync states read: a word and a tone, so StatusBadge never says it with colour alone.
 */
import type { PinStatus, SyncState } from '../../shared/api-types.js';

export type StatusTone = 'neutral' | 'progress' | 'success' | 'warning' | 'danger';

export interface StatusLook {
  label: string;
  tone: StatusTone;
}

const PIN: Record<PinStatus, StatusLook> = {
  pinning: { label: 'Pinning', tone: 'progress' },
  pinned: { label: 'Pinned', tone: 'success' },
  failure: { label: 'Failed', tone: 'danger' },
  unpinning: { label: 'Unpinning', tone: 'warning' },
};

const SYNC: Record<SyncState, StatusLook> = {
  scanning: { label: 'Scanning', tone: 'progress' },
  syncing: { label: 'Syncing', tone: 'progress' },
  idle: { label: 'Up to date', tone: 'success' },
  paused: { label: 'Paused', tone: 'neutral' },
  error: { label: 'Error', tone: 'danger' },
};

export function pinStatusLook(status: PinStatus): StatusLook {
  return PIN[status];
}

export function syncStateLook(state: SyncState): StatusLook {
  return SYNC[state];
}
