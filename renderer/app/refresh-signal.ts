/**
 * "Fetch again": bumped when the service answers after being unreachable and when the event stream is
 * open again after a gap (events may have been missed). The request cache then loads every query shown
 * again (renderer/data/data-provider.tsx), and a page that failed to render is tried again.
 */
import { createStore, type Store } from '../lib/store.js';

export interface RefreshSignal {
  readonly epoch: Store<number>;
  bump: () => void;
}

export function createRefreshSignal(): RefreshSignal {
  const epoch = createStore(0);
  return {
    epoch,
    bump: () => epoch.set(epoch.get() + 1),
  };
}
