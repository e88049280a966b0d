import type { SyncFolderState } from '../store/repositories/sync.js';

export interface SyncProgress {
  state: SyncFolderState;
  filesDone: number;
  filesPending: number;
  bytesDone: number;
  bytesPending: number;
  currentFile: string;
  lastError: string;
}

/** One batch's progress, owned here and told to `onProgress` as a copy each time it is reported. */
export class BatchProgress {
  private readonly now: SyncProgress;

  constructor(
    files: number,
    bytes: number,
    private readonly onProgress: ((progress: SyncProgress) => void) | undefined,
  ) {
    this.now = { state: 'syncing', filesDone: 0, filesPending: files, bytesDone: 0, bytesPending: bytes, currentFile: '', lastError: '' };
  }

  report(): void {
    this.onProgress?.({ ...this.now });
  }

  /** A file's import starts (reported). */
  started(path: string): void {
    this.now.currentFile = path;
    this.report();
  }

  /** Bytes of the current files read (told at the next report). */
  read(bytes: number): void {
    this.now.bytesDone += bytes;
    this.now.bytesPending = Math.max(0, this.now.bytesPending - bytes);
  }

  /** A file's import ended (reported); `error`: why it could not be read. */
  finished(error?: string): void {
    this.now.filesDone++;
    this.now.filesPending--;
    if (error !== undefined) this.now.lastError = error;
    this.report();
  }

  /** The batch ended (reported). */
  idle(): void {
    this.now.currentFile = '';
    this.now.state = 'idle';
    this.report();
  }
}
