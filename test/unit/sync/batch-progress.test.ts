import { describe, it, expect } from 'vitest';
import { BatchProgress, type SyncProgress } from '../../../main/sync/batch-progress.js';

describe('BatchProgress', () => {
  it('counts files and bytes down as they are read, and reports copies', () => {
    const seen: SyncProgress[] = [];
    const progress = new BatchProgress(2, 100, (p) => seen.push(p));
    progress.report();
    progress.started('a');
    progress.read(30);
    progress.finished();
    progress.started('b');
    progress.read(90);
    progress.finished('b: permission denied (EACCES)');
    progress.idle();
    expect(seen.map((p) => [p.state, p.currentFile, p.filesDone, p.filesPending, p.bytesDone, p.bytesPending, p.lastError])).toEqual([
      ['syncing', '', 0, 2, 0, 100, ''],
      ['syncing', 'a', 0, 2, 0, 100, ''],
      ['syncing', 'a', 1, 1, 30, 70, ''],
      ['syncing', 'b', 1, 1, 30, 70, ''],
      ['syncing', 'b', 2, 0, 120, 0, 'b: permission denied (EACCES)'],
      ['idle', '', 2, 0, 120, 0, 'b: permission denied (EACCES)'],
    ]);
  });
});
