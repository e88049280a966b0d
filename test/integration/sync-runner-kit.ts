import { requireHeld } from '../../main/base/lock.js';
import { silentLogger } from '../../main/base/logger.js';
import { createReadWriteLock } from '../../main/base/read-write-lock.js';
import { sqliteStore } from '../../main/store/db/sqlite-store.js';
import type { RunnerTiming, SyncDomains } from '../../main/sync/runner.js';
import type { FakeDomains, SyncTestEnv } from '../helpers/sync-fixtures.js';

/** Short timings, so a runner settles in tens of milliseconds. */
export const FAST_TIMING: RunnerTiming = { settleMs: 20, maxBatchMs: 500, stabilityMs: 30, stabilityPollMs: 10, rootRetryMs: 50, errorRetryMs: 50 };

export interface FakeSyncDomains extends SyncDomains {
  /** Every movePin, with whether it came with a live hold of the GC lock. */
  pinMoves: Array<{ accountId: number; newRoot: string; oldRoot: string | undefined; pinName: string; heldGc: boolean }>;
  createdNames: string[];
  /** Folder ids the event stream was told about. */
  notices: string[];
  /** Makes every batch fail (from its next import) while set. */
  failing: Error | undefined;
  /** A newer record of every name seen elsewhere while set: publishes stop, unless forced. */
  conflicting: boolean;
  /** Every publish asked for, forced or not, and what it came to. */
  publishes: Array<{ name: string; root: string; force: boolean; outcome: 'published' | 'conflict' }>;
}

/** The sync engine's domains over the reconciler fakes of sync-fixtures.ts and a real GC lock. */
export function fakeSyncDomains(env: SyncTestEnv, fake: FakeDomains): FakeSyncDomains {
  const gcLock = createReadWriteLock();
  const domains: FakeSyncDomains = {
    store: sqliteStore(env.db),
    logger: silentLogger,
    pinMoves: [],
    createdNames: [],
    notices: [],
    failing: undefined,
    conflicting: false,
    publishes: [],
    holdGc: (fn) => gcLock.shared(fn),
    openSession: () => ({
      importFile: async (source, options) => {
        if (domains.failing) throw domains.failing;
        return fake.importFile(source, options);
      },
      applyOperation: (dirCid, op, options) => fake.applyOperation(dirCid, op, options),
      commit: async () => undefined,
      abort: () => undefined,
    }),
    async movePin(accountId, newRoot, oldRoot, pinName, hold) {
      let heldGc = true;
      try {
        requireHeld(hold, gcLock, 'movePin');
      } catch {
        heldGc = false;
      }
      domains.pinMoves.push({ accountId, newRoot, oldRoot, pinName, heldGc });
      await fake.movePin(newRoot, oldRoot);
    },
    async publish(_accountId, name, root, force = false) {
      const outcome = domains.conflicting && !force ? 'conflict' : 'published';
      domains.publishes.push({ name, root, force, outcome });
      if (outcome === 'published') await fake.publish(name, root);
      return outcome;
    },
    async createName(_accountId, root) {
      const name = `k51-created-${domains.createdNames.length}`;
      domains.createdNames.push(name);
      await fake.publish(name, root);
      return name;
    },
    events: { syncChanged: (_accountId, folderId) => void domains.notices.push(folderId) },
  };
  return domains;
}
