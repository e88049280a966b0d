import { describe, expect, it } from 'vitest';
import type { SyncFolderState } from '../../../main/store/repositories/sync.js';
import { refusalOf } from '../../../main/sync/folder-controls.js';
import type { RunnerStatus } from '../../../main/sync/folder-status.js';

const running = (state: SyncFolderState): { status(): RunnerStatus } => ({
  status: () => ({ state, pending: 0, filesDone: 0, filesPending: 0, bytesDone: 0, bytesPending: 0, currentFile: '', error: '', unreadable: [], errors: [] }),
});

describe('refusalOf (may a folder be rescanned or retried now)', () => {
  it('a folder paused by its user, or without a runner, is refused either way with what to do instead', () => {
    for (const [folder, runner] of [
      [{ id: 'f1', userPaused: true }, running('idle')],
      [{ id: 'f1', userPaused: false }, undefined],
    ] as const) {
      expect(refusalOf('rescan', folder, runner)).toBe('id: sync folder f1 is paused; resume it to rescan');
      expect(refusalOf('retry', folder, runner)).toBe('id: sync folder f1 is paused; resume it instead');
    }
  });

  it('a running folder may always be rescanned', () => {
    for (const state of ['idle', 'scanning', 'syncing', 'error', 'paused'] as const) {
      expect(refusalOf('rescan', { id: 'f1', userPaused: false }, running(state)), state).toBeUndefined();
    }
  });

  it('only a folder in error, or paused because its root vanished, may be retried', () => {
    expect(refusalOf('retry', { id: 'f1', userPaused: false }, running('error'))).toBeUndefined();
    expect(refusalOf('retry', { id: 'f1', userPaused: false }, running('paused'))).toBeUndefined();
    for (const state of ['idle', 'scanning', 'syncing'] as const) {
      expect(refusalOf('retry', { id: 'f1', userPaused: false }, running(state))).toBe(`id: sync folder f1 is ${state}, not in error: nothing to retry`);
    }
  });
});
