import type { SyncFolderRow } from '../store/repositories/sync.js';
import { startFollowRunner, type FollowDomains, type FollowRunnerTiming } from './follow/follow-runner.js';
import type { HistoryBytesWorker } from './history-bytes.js';
import { startFolderRunner, type FolderRunner, type RunnerTiming, type SyncDomains } from './runner.js';

/**
 * The running folders of the sync service: one {@link FolderRunner} per folder that runs (a sync folder's, or
 * a followed folder's when following is available), started from its row and stopped by id. Only this map
 * says which folders run.
 */

export interface FollowSetup {
  domains: FollowDomains;
  timing?: FollowRunnerTiming;
}

export interface FolderRunnersInit {
  /** The domains as the runners see them (their notices already wired: {@link withHistoryBytesRequests}). */
  domains: SyncDomains;
  timing?: RunnerTiming;
  /** Absent: followed folders do not run. */
  follow?: FollowSetup;
}

/** A runner's notices (a batch settled among them) also ask for the history bytes of its new versions. */
export function withHistoryBytesRequests(domains: SyncDomains, historyBytes: Pick<HistoryBytesWorker, 'request'>): SyncDomains {
  return {
    ...domains,
    events: {
      syncChanged(accountId, id, removed) {
        domains.events?.syncChanged(accountId, id, removed);
        if (removed !== true) historyBytes.request(accountId, id);
      },
    },
  };
}

export class FolderRunners {
  private readonly running = new Map<string, FolderRunner>();

  constructor(private readonly init: FolderRunnersInit) {}

  /**
   * Starts the folder's runner; undefined for a followed folder when following is not available.
   * Synchronous from the row to the map: a runner is here as soon as it exists.
   */
  start(folder: SyncFolderRow): FolderRunner | undefined {
    const runner = this.startRunner(folder);
    if (runner !== undefined) this.running.set(folder.id, runner);
    return runner;
  }

  get(id: string): FolderRunner | undefined {
    return this.running.get(id);
  }

  has(id: string): boolean {
    return this.running.has(id);
  }

  /** Out of the map at once (a later start is another runner), then stopped. */
  async stop(id: string): Promise<void> {
    const runner = this.running.get(id);
    this.running.delete(id);
    await runner?.stop();
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.running.keys()].map((id) => this.stop(id)));
  }

  private startRunner(folder: SyncFolderRow): FolderRunner | undefined {
    const { domains, timing, follow } = this.init;
    if (folder.mode !== 'follow') return startFolderRunner({ ...timing, domains, folder });
    if (!follow) return undefined;
    return startFollowRunner({ domains: { ...follow.domains, events: domains.events }, folder, ...(follow.timing ? { timing: follow.timing } : {}) });
  }
}
