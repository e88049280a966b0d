import { describe, expect, it } from 'vitest';
import {
  folderStatusView,
  foldStatus,
  INITIAL_FOLDER_STATUS,
  MAX_RECENT_ERRORS,
  type FolderStatus,
  type FolderStatusEvent,
} from '../../../main/sync/folder-status.js';
import type { SyncProgress } from '../../../main/sync/reconciler.js';

/** Folds events from the initial status; answers the status and every effect, in order. */
function run(events: FolderStatusEvent[], from: FolderStatus = INITIAL_FOLDER_STATUS): { status: FolderStatus; effects: unknown[] } {
  let status = from;
  const effects: unknown[] = [];
  for (const event of events) {
    const next = foldStatus(status, event);
    status = next.status;
    effects.push(...next.effects);
  }
  return { status, effects };
}

const progress = (filesPending: number, lastError = ''): SyncProgress => ({
  state: 'syncing',
  filesDone: 1,
  filesPending,
  bytesDone: 10,
  bytesPending: 20,
  currentFile: 'a.txt',
  lastError,
});

describe('folder status (a pure function of what happened to a sync folder)', () => {
  it('stores every state move with its error and tells the event stream', () => {
    const { status, effects } = run([{ type: 'moved', state: 'syncing' }]);
    expect(status.state).toBe('syncing');
    expect(effects).toEqual([{ type: 'store', state: 'syncing', error: '' }, { type: 'notify' }]);
  });

  it('settles to scanning until the watcher is up, then to idle', () => {
    expect(run([{ type: 'settled' }]).status.state).toBe('scanning');
    expect(run([{ type: 'watching' }, { type: 'settled' }]).status.state).toBe('idle');
    expect(run([{ type: 'watching' }, { type: 'halted' }, { type: 'settled' }]).status.state).toBe('scanning');
  });

  it('lists unreadable files, notes each once while it stays unreadable, and shows them as the error', () => {
    const { status } = run([
      { type: 'unreadable', entries: [{ path: 'a', reason: 'permission denied' }], at: 5 },
      { type: 'unreadable', entries: [{ path: 'a', reason: 'permission denied' }], at: 6 },
      { type: 'unreadable', entries: [{ path: 'b', reason: 'not a regular file' }], at: 7 },
      { type: 'settled' },
    ]);
    expect(status.errors).toEqual([
      { at: 5, path: 'a', message: 'permission denied' },
      { at: 7, path: 'b', message: 'not a regular file' },
    ]);
    expect(status.error).toBe('cannot read 2 files: a (permission denied); b (not a regular file)');
  });

  it('forgets unreadable paths a batch reads again, moves, or removes with their folder', () => {
    const { status } = run([
      { type: 'unreadable', entries: ['a', 'm', 'd/x', 'd/y/z', 'keep'].map((path) => ({ path, reason: 'denied' })), at: 1 },
      {
        type: 'batch-started',
        changes: [
          { type: 'change', kind: 'file', path: 'a' },
          { type: 'move', kind: 'file', from: 'm', to: 'n', removesSource: true },
          { type: 'remove', kind: 'dir', path: 'd' },
        ],
      },
    ]);
    expect([...status.unreadable.keys()]).toEqual(['keep']);
  });

  it('a pause or an error is stored with its reason and noted as a folder error; a boot starts afresh', () => {
    const { status, effects } = run([{ type: 'stopped', state: 'paused', reason: 'the folder is gone', at: 9 }]);
    expect(status).toMatchObject({ state: 'paused', error: 'the folder is gone', errors: [{ at: 9, path: '', message: 'the folder is gone' }] });
    expect(effects[0]).toEqual({ type: 'store', state: 'paused', error: 'the folder is gone' });
    const booted = run(
      [{ type: 'unreadable', entries: [{ path: 'a', reason: 'denied' }], at: 1 }, { type: 'rescanning-all' }, { type: 'moved', state: 'scanning', error: '' }],
      status,
    );
    expect(booted.status).toMatchObject({ state: 'scanning', error: '' });
    expect(booted.status.unreadable.size).toBe(0);
    expect(booted.status.errors).toHaveLength(2);
  });

  it(`remembers the last ${MAX_RECENT_ERRORS} errors`, () => {
    const events: FolderStatusEvent[] = Array.from({ length: MAX_RECENT_ERRORS + 5 }, (_, i) => ({ type: 'stopped', state: 'error', reason: `e${i}`, at: i }));
    const { status } = run(events);
    expect(status.errors).toHaveLength(MAX_RECENT_ERRORS);
    expect(status.errors[0]?.message).toBe('e5');
  });

  it("shows a batch's progress (notifying as it moves) and its last error when nothing else went wrong", () => {
    const moving = run([{ type: 'progress', progress: progress(3, 'b.txt: denied') }]);
    expect(moving.effects).toEqual([{ type: 'notify' }]);
    expect(folderStatusView(moving.status, 2)).toMatchObject({
      pending: 5,
      filesDone: 1,
      filesPending: 3,
      bytesDone: 10,
      bytesPending: 20,
      currentFile: 'a.txt',
      error: 'b.txt: denied',
    });
    const done = run([{ type: 'progress', progress: undefined }], moving.status);
    expect(done.effects).toEqual([]);
    expect(folderStatusView(done.status, 0)).toMatchObject({ pending: 0, filesPending: 0, currentFile: '', error: '' });
  });
});
