import { unixSeconds } from '../base/clock.js';
import type { SyncFolderState } from '../store/repositories/sync.js';
import { folderStatusView, foldStatus, INITIAL_FOLDER_STATUS, type FolderStatus, type FolderStatusEvent, type RunnerStatus } from './folder-status.js';
import type { RunnerContext } from './runner-context.js';
import type { Unreadable } from './scanner.js';

/**
 * What a running folder shows: a pure function of what happened to it (folder-status.ts); `note` applies
 * an event and performs its effects (the row's state, the event stream's notice).
 */
export class StatusKeeper {
  private shown: FolderStatus = INITIAL_FOLDER_STATUS;

  /** `stopped`: once the runner stopped, its state is no longer written to the row. */
  constructor(
    private readonly ctx: RunnerContext,
    private readonly stopped: () => boolean,
  ) {}

  get state(): SyncFolderState {
    return this.shown.state;
  }

  /** The status a folder's page shows; `waiting` counts raw events and writes not yet still. */
  view(waiting: number): RunnerStatus {
    return folderStatusView(this.shown, waiting);
  }

  /** Tells the event stream; it reads the folder's row when it sends (at most 4 times a second), so a notice is cheap. */
  changed(): void {
    this.ctx.domains.events?.syncChanged(this.ctx.accountId, this.ctx.folderId);
  }

  note(event: FolderStatusEvent): void {
    const next = foldStatus(this.shown, event);
    this.shown = next.status;
    for (const effect of next.effects) {
      if (effect.type === 'notify') this.changed();
      else if (!this.stopped()) this.persist(effect.state, effect.error);
    }
  }

  noteUnreadable(entries: readonly Unreadable[]): void {
    this.note({ type: 'unreadable', entries, at: unixSeconds(this.ctx.clock) });
  }

  /**
   * The row's state is what the folder shows while no runner is live (the list after a restart, a paused
   * folder); the runner itself shows `shown`. So the write is not waited for (a note comes from watcher and
   * progress callbacks that cannot wait), and writes keep the order of their notes: the store runs
   * autocommit calls in the order they came.
   */
  private persist(state: SyncFolderState, error: string): void {
    const { store, folderId, logger } = this.ctx;
    store.sync
      .setSyncFolderState(folderId, state, error)
      .catch((failure: unknown) => logger.error('sync folder state not saved', { folderId, error: failure }));
  }
}
