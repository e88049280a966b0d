import { unixSeconds, type Clock } from '../../base/clock.js';
import type { SyncFolderRow } from '../../store/repositories/sync.js';
import type { RunnerStatus } from '../folder-status.js';
import type { FollowDomains } from './follow-domains.js';

/** Progress reaches the event stream at most this often. */
const PROGRESS_EVENT_MS = 500;
/** The most recent errors a folder keeps. */
const MAX_ERRORS = 20;

/**
 * What a followed folder shows (follow-runner.ts): its status, progress events at most every
 * {@link PROGRESS_EVENT_MS}, and its state stored in order (`settled()`: the last state write, awaited at stop
 * so a pause's own state is written after it).
 */
export class FollowStatusBoard {
  private readonly status: RunnerStatus;
  private lastEventMs = 0;
  private stateWrite: Promise<void> = Promise.resolve();

  constructor(
    private readonly folder: SyncFolderRow,
    private readonly domains: Pick<FollowDomains, 'store' | 'logger' | 'events'>,
    private readonly clock: Clock,
  ) {
    this.status = {
      state: folder.rootCid === '' ? 'syncing' : folder.state === 'error' ? 'error' : 'idle',
      pending: 0,
      filesDone: 0,
      filesPending: 0,
      bytesDone: 0,
      bytesPending: 0,
      currentFile: '',
      error: folder.state === 'error' ? folder.error : '',
      unreadable: [],
      errors: [],
    };
  }

  snapshot(): RunnerStatus {
    return { ...this.status, unreadable: [], errors: [...this.status.errors] };
  }

  /** The window hears that the folder changed. */
  readonly notify = (): void => {
    this.lastEventMs = Date.now();
    this.domains.events?.syncChanged(this.folder.accountId, this.folder.id);
  };

  /** Progress moved: the window hears of it unless it heard less than an interval ago. */
  readonly progressed = (): void => {
    if (Date.now() - this.lastEventMs >= PROGRESS_EVENT_MS) this.notify();
  };

  setProgress(filesDone: number, bytesDone: number, currentFile: string): void {
    this.status.state = 'syncing';
    this.status.filesDone = filesDone;
    this.status.bytesDone = bytesDone;
    this.status.currentFile = currentFile;
    this.progressed();
  }

  /** Writing a version: the files still to write are the folder's pending ones, as a synced folder's still to read are. */
  setWriting(filesDone: number, filesTotal: number, currentFile: string): void {
    this.status.filesPending = filesTotal - filesDone;
    this.status.pending = this.status.filesPending;
    this.setProgress(filesDone, this.status.bytesDone, currentFile);
  }

  /** Shows `idle` or `error` (kept among the recent errors), stored after the states shown before. */
  show(state: 'idle' | 'error', error: string): void {
    Object.assign(this.status, { filesDone: 0, bytesDone: 0, filesPending: 0, pending: 0, currentFile: '', state, error });
    if (error !== '') {
      this.status.errors.push({ at: unixSeconds(this.clock), path: '', message: error });
      if (this.status.errors.length > MAX_ERRORS) this.status.errors.shift();
    }
    const { store, logger } = this.domains;
    const folderId = this.folder.id;
    this.stateWrite = this.stateWrite
      .then(() => store.sync.setSyncFolderState(folderId, state, error))
      .then(this.notify, (problem: unknown) => logger.warn('a followed folder state was not stored', { folder: folderId, error: problem }));
  }

  settled(): Promise<void> {
    return this.stateWrite;
  }
}
