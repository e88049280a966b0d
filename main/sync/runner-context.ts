import { systemClock, type Clock } from '../base/clock.js';
import type { Logger } from '../base/logger.js';
import type { Store } from '../store/repositories/index.js';
import type { SyncFolderRow } from '../store/repositories/sync.js';
import { foldPath } from './coalescer.js';
import type { RetryTiming } from './runner-policy.js';
import type { FolderRunnerInit, RunnerTiming, SyncDomains } from './runner-types.js';
import { checkFolderRoot, type RootCheck } from './scanner.js';

export const DEFAULT_ROOT_RETRY_MS = 5_000;
export const DEFAULT_ERROR_RETRY_MS = 10_000;

/**
 * What every unit of one folder runner shares and nobody changes: the domains, the folder's fixed facts
 * (id, path, account, case), its timings, and the readers of what does change (its row, its root).
 */
export interface RunnerContext {
  readonly domains: SyncDomains;
  readonly store: Store;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly folderId: string;
  readonly folderPath: string;
  readonly accountId: number;
  readonly caseInsensitive: boolean;
  /** The name of the pin on the folder's root. */
  readonly pinName: string;
  /** The watcher's and the coalescer's timings as given (they apply their own defaults). */
  readonly timing: Pick<RunnerTiming, 'settleMs' | 'maxBatchMs' | 'stabilityMs' | 'stabilityPollMs'>;
  readonly retry: RetryTiming;
  /** A path's key among the folder's entries (case folded on a case-insensitive folder). */
  keyOf(path: string): string;
  /** The folder's row as stored now; throws once the folder was removed. */
  readRow(): Promise<SyncFolderRow>;
  /** The unmounted-drive rule, against the device the row holds now. */
  checkRoot(): Promise<RootCheck>;
}

export function runnerContext(init: FolderRunnerInit): RunnerContext {
  const { domains, folder, settleMs, maxBatchMs, stabilityMs, stabilityPollMs } = init;
  const { store } = domains;
  const readRow = async (): Promise<SyncFolderRow> => {
    const row = await store.sync.getSyncFolder(folder.id);
    if (!row) throw new Error(`sync folder ${folder.id} was removed`);
    return row;
  };
  return {
    domains,
    store,
    logger: domains.logger,
    clock: domains.clock ?? systemClock,
    folderId: folder.id,
    folderPath: folder.path,
    accountId: folder.accountId,
    caseInsensitive: folder.caseInsensitive,
    pinName: `sync ${folder.path}`.slice(0, 255),
    timing: { settleMs, maxBatchMs, stabilityMs, stabilityPollMs },
    retry: { rootRetryMs: init.rootRetryMs ?? DEFAULT_ROOT_RETRY_MS, errorRetryMs: init.errorRetryMs ?? DEFAULT_ERROR_RETRY_MS },
    keyOf: (p) => foldPath(p, folder.caseInsensitive),
    readRow,
    checkRoot: async () => checkFolderRoot(folder.path, (await readRow()).deviceId),
  };
}
