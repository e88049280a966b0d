import type { SyncFolderState } from '../store/repositories/sync.js';
import type { Change } from './coalescer.js';
import type { SyncProgress } from './reconciler.js';
import type { Unreadable } from './scanner.js';

/**
 * What a sync folder shows (its state, error, progress, unreadable files, recent errors) as a pure
 * function of what happened to it: `foldStatus(status, event)` answers the next status and the
 * effects the runner performs (store the state and error in the folder's row, tell the event stream).
 */

const MAX_ERROR_TEXT = 2_000;
/** Recent errors a folder remembers for its page (in memory: a restart starts afresh). */
export const MAX_RECENT_ERRORS = 50;

/** Something that went wrong, for the folder's page: `path` is '' for the folder as a whole. */
export interface SyncErrorNote {
  /** Unix seconds. */
  at: number;
  path: string;
  message: string;
}

export interface FolderStatus {
  readonly state: SyncFolderState;
  /**
   * Whether this boot's watcher is up and its confirming rescan done: until then a settled folder
   * reads 'scanning', since a change made meanwhile is found only by that rescan.
   */
  readonly watching: boolean;
  /** What went wrong last ('' when nothing): the paused reason, a failed batch, or the unreadable files. */
  readonly error: string;
  readonly progress: SyncProgress | undefined;
  /** Files that cannot be read, by path: listed while they stay so. */
  readonly unreadable: ReadonlyMap<string, string>;
  /** Recent errors, oldest first (at most MAX_RECENT_ERRORS). */
  readonly errors: readonly SyncErrorNote[];
}

export type FolderStatusEvent =
  /** The folder moved to `state`; `error` defaults to the unreadable files' text. */
  | { type: 'moved'; state: SyncFolderState; error?: string }
  /** Work is done for now: 'idle' once watching, else still 'scanning'. */
  | { type: 'settled' }
  /** Paused (the folder root is gone) or in error (a batch failed): noted as a folder error too. */
  | { type: 'stopped'; state: 'paused' | 'error'; reason: string; at: number }
  /** Files found unreadable (a scan, a batch, the watcher): noted as errors when they first become so. */
  | { type: 'unreadable'; entries: readonly Unreadable[]; at: number }
  /** A batch reads these paths again (or removes them): they are reported afresh, or no more. */
  | { type: 'batch-started'; changes: readonly Change[] }
  | { type: 'progress'; progress: SyncProgress | undefined }
  /** The live parts of a boot are stopping (watcher, timers, a batch in flight): no longer watching. */
  | { type: 'halted' }
  /** A boot starts over from the stored state: what was unreadable is found again by its scan. */
  | { type: 'rescanning-all' }
  /** The watcher is up and its confirming rescan done. */
  | { type: 'watching' };

export interface RunnerStatus {
  state: SyncFolderState;
  /** Changes seen but not yet in a published root: raw events waiting, writes not yet still, files in the batch. */
  pending: number;
  filesDone: number;
  filesPending: number;
  bytesDone: number;
  bytesPending: number;
  currentFile: string;
  /** What went wrong last ('' when nothing): the paused reason, a failed batch, or the unreadable files. */
  error: string;
  unreadable: Unreadable[];
  /** Recent errors, oldest first (at most MAX_RECENT_ERRORS). */
  errors: SyncErrorNote[];
}

export type FolderStatusEffect = { type: 'store'; state: SyncFolderState; error: string } | { type: 'notify' };

export const INITIAL_FOLDER_STATUS: FolderStatus = {
  state: 'scanning',
  watching: false,
  error: '',
  progress: undefined,
  unreadable: new Map(),
  errors: [],
};

export function unreadableText(unreadable: ReadonlyMap<string, string>): string {
  if (unreadable.size === 0) return '';
  const list = [...unreadable].map(([p, reason]) => `${p} (${reason})`).join('; ');
  const text = `cannot read ${unreadable.size} ${unreadable.size === 1 ? 'file' : 'files'}: ${list}`;
  return text.length > MAX_ERROR_TEXT ? `${text.slice(0, MAX_ERROR_TEXT - 3)}...` : text;
}

const withErrors = (errors: readonly SyncErrorNote[], added: readonly SyncErrorNote[]): readonly SyncErrorNote[] =>
  added.length === 0 ? errors : [...errors, ...added].slice(-MAX_RECENT_ERRORS);

const changedPaths = (changes: readonly Change[]): string[] => changes.flatMap((c) => (c.type === 'move' ? [c.from, c.to] : [c.path]));

function moved(status: FolderStatus, state: SyncFolderState, error: string): { status: FolderStatus; effects: FolderStatusEffect[] } {
  return { status: { ...status, state, error }, effects: [{ type: 'store', state, error }, { type: 'notify' }] };
}

export function foldStatus(status: FolderStatus, event: FolderStatusEvent): { status: FolderStatus; effects: FolderStatusEffect[] } {
  switch (event.type) {
    case 'moved':
      return moved(status, event.state, event.error ?? unreadableText(status.unreadable));
    case 'settled':
      return moved(status, status.watching ? 'idle' : 'scanning', unreadableText(status.unreadable));
    case 'stopped': {
      const next = moved(status, event.state, event.reason);
      return { ...next, status: { ...next.status, errors: withErrors(status.errors, [{ at: event.at, path: '', message: event.reason }]) } };
    }
    case 'unreadable': {
      if (event.entries.length === 0) return { status, effects: [] };
      const unreadable = new Map(status.unreadable);
      const notes: SyncErrorNote[] = [];
      for (const entry of event.entries) {
        if (unreadable.get(entry.path) !== entry.reason) notes.push({ at: event.at, path: entry.path, message: entry.reason });
        unreadable.set(entry.path, entry.reason);
      }
      return { status: { ...status, unreadable, errors: withErrors(status.errors, notes) }, effects: [] };
    }
    case 'batch-started': {
      const unreadable = new Map(status.unreadable);
      for (const p of changedPaths(event.changes)) unreadable.delete(p);
      for (const change of event.changes) {
        if (change.type !== 'remove' || change.kind !== 'dir') continue;
        for (const key of [...unreadable.keys()]) if (key.startsWith(`${change.path}/`)) unreadable.delete(key);
      }
      return { status: { ...status, unreadable }, effects: [] };
    }
    case 'progress':
      return { status: { ...status, progress: event.progress }, effects: event.progress === undefined ? [] : [{ type: 'notify' }] };
    case 'halted':
      return { status: { ...status, watching: false }, effects: [] };
    case 'rescanning-all':
      return { status: { ...status, unreadable: new Map() }, effects: [] };
    case 'watching':
      return { status: { ...status, watching: true }, effects: [] };
  }
}

/** The status a folder's page and list show; `waiting` counts raw events and writes not yet still. */
export function folderStatusView(status: FolderStatus, waiting: number): RunnerStatus {
  const p = status.progress;
  return {
    state: status.state,
    pending: waiting + (p?.filesPending ?? 0),
    filesDone: p?.filesDone ?? 0,
    filesPending: p?.filesPending ?? 0,
    bytesDone: p?.bytesDone ?? 0,
    bytesPending: p?.bytesPending ?? 0,
    currentFile: p?.currentFile ?? '',
    error: status.error || p?.lastError || '',
    unreadable: [...status.unreadable].map(([path, reason]) => ({ path, reason })),
    errors: [...status.errors],
  };
}
