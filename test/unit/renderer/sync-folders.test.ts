/** The Sync pages' pure logic: folder names, conditions, progress and state sentences, live rows, ignore text, the CLI command. */
import { describe, expect, it } from 'vitest';
import {
  addFailure,
  addProblem,
  applySyncEvent,
  describeBatch,
  describeContent,
  describeProgress,
  folderCondition,
  folderName,
  ignoreText,
  ipnsNote,
  MAX_IGNORE_PATTERN_LENGTH,
  parseIgnoreText,
  samePatterns,
  shellArgument,
  stateDetail,
  syncAddCommand,
  syncProgress,
} from '../../../renderer/lib/sync-folders.js';
import type { SyncFolderView } from '../../../shared/api-types.js';

const MiB = 1024 ** 2;

function row(fields: Partial<SyncFolderView> = {}): SyncFolderView {
  return {
    id: 'f1',
    path: '/home/me/photos',
    root: 'bafyroot',
    ipns_name: 'k51name',
    state: 'idle',
    files: 3,
    bytes: 3 * MiB,
    pending: 0,
    last_synced_at: 1_700_000_000,
    error: '',
    current_file: '',
    files_done: 0,
    bytes_done: 0,
    bytes_pending: 0,
    unreadable: [],
    ignore: [],
    created_at: 1_690_000_000,
    public: false,
    history_bytes: 0,
    conflict: null,
    mode: 'sync',
    source: '',
    from: [],
    seq: 0,
    checked_at: 0,
    local_changes: [],
    ...fields,
  };
}

describe('folderName', () => {
  it('takes the last segment of POSIX and Windows paths, ignoring trailing separators', () => {
    expect(folderName('/home/me/photos')).toBe('photos');
    expect(folderName('/home/me/photos/')).toBe('photos');
    expect(folderName('C:\\Users\\me\\My Documents')).toBe('My Documents');
    expect(folderName('D:\\sites\\blog\\')).toBe('blog');
    expect(folderName('relative')).toBe('relative');
  });

  it('keeps a root whole rather than naming it ""', () => {
    expect(folderName('/')).toBe('/');
    expect(folderName('C:\\')).toBe('C:\\');
  });
});

describe('folderCondition', () => {
  it('tells a pause by the user from a pause by the service (a vanished folder) and an error', () => {
    expect(folderCondition(row({ state: 'paused' }))).toBe('paused');
    expect(folderCondition(row({ state: 'paused', error: 'folder not found (drive unmounted or folder deleted)' }))).toBe('stalled');
    expect(folderCondition(row({ state: 'error', error: 'disk full' }))).toBe('stalled');
    for (const state of ['scanning', 'syncing', 'idle'] as const) expect(folderCondition(row({ state }))).toBe('running');
    // Unreadable files show in `error` of an idle folder: nothing to retry, it runs.
    expect(folderCondition(row({ state: 'idle', error: 'cannot read 1 file: a (permission denied)' }))).toBe('running');
  });
});

describe('syncProgress and describeProgress', () => {
  it('counts the batch by files and bytes while syncing', () => {
    const progress = syncProgress(row({ state: 'syncing', files_done: 3, pending: 9, bytes_done: 1.5 * MiB, bytes_pending: 2.5 * MiB }));
    expect(progress).toEqual({ filesDone: 3, filesTotal: 12, bytesDone: 1.5 * MiB, bytesTotal: 4 * MiB, fraction: 0.375 });
    expect(describeProgress(progress!)).toBe('3 of 12 files · 1.5 MiB of 4 MiB');
  });

  it('falls back to files when no bytes are counted (removals), and knows nothing before the first count', () => {
    const removals = syncProgress(row({ state: 'syncing', files_done: 1, pending: 3 }));
    expect(removals?.fraction).toBe(0.25);
    expect(describeProgress(removals!)).toBe('1 of 4 files');
    expect(syncProgress(row({ state: 'syncing' }))?.fraction).toBeNull();
    expect(describeProgress(syncProgress(row({ state: 'syncing', pending: 1 }))!)).toBe('0 of 1 file');
  });

  it('is null unless the folder is syncing', () => {
    for (const state of ['scanning', 'idle', 'paused', 'error'] as const) expect(syncProgress(row({ state, files_done: 1, pending: 1 }))).toBeNull();
  });
});

describe('stateDetail', () => {
  it('says what each state means and what happens next', () => {
    expect(stateDetail(row())).toBe('');
    expect(stateDetail(row({ state: 'scanning', root: '' }))).toBe('Reading the folder for the first time…');
    expect(stateDetail(row({ state: 'scanning' }))).toBe('Looking for changes…');
    expect(stateDetail(row({ state: 'syncing', files_done: 2, pending: 2, bytes_done: 10, bytes_pending: 30 }))).toBe('2 of 4 files · 10 B of 40 B');
    expect(stateDetail(row({ state: 'paused' }))).toBe('Paused by you: changes are not synced until you resume.');
    expect(stateDetail(row({ state: 'paused', error: 'folder not found (drive unmounted or folder deleted)' }))).toBe(
      'Folder not found (drive unmounted or folder deleted). Pinfold tries again every few seconds, or now with Retry.',
    );
    expect(stateDetail(row({ state: 'error', error: 'no space left on device' }))).toBe(
      'No space left on device. Pinfold tries again shortly, or now with Retry.',
    );
    expect(stateDetail(row({ state: 'error' }))).toBe('The last batch failed. Pinfold tries again shortly, or now with Retry.');
  });

  it('mentions unreadable files and changes still settling on an idle folder', () => {
    expect(stateDetail(row({ unreadable: [{ path: 'a', reason: 'permission denied' }] }))).toBe('1 file cannot be read and is left out.');
    expect(
      stateDetail(
        row({
          unreadable: [
            { path: 'a', reason: 'x' },
            { path: 'b', reason: 'y' },
          ],
        }),
      ),
    ).toBe('2 files cannot be read and are left out.');
    expect(stateDetail(row({ pending: 1 }))).toBe('1 change waiting to settle.');
  });
});

describe('describeBatch', () => {
  it('says what a batch changed, leaving zeros out', () => {
    expect(describeBatch({ added: 3, modified: 0, removed: 0 })).toBe('3 added');
    expect(describeBatch({ added: 0, modified: 2, removed: 1 })).toBe('2 modified, 1 removed');
    expect(describeBatch({ added: 1200, modified: 1, removed: 0 })).toBe('1,200 added, 1 modified');
    expect(describeBatch({ added: 0, modified: 0, removed: 0 })).toBe('No files changed');
  });
});

describe('describeContent and ipnsNote', () => {
  it('reads a folder size and where its name stands', () => {
    expect(describeContent({ files: 1204, bytes: 3 * MiB })).toBe('1,204 files · 3 MiB');
    expect(describeContent({ files: 1, bytes: 0 })).toBe('1 file · 0 B');
    expect(ipnsNote({ root: '', ipns_name: '' })).toBe('After the first scan');
    expect(ipnsNote({ root: 'bafy', ipns_name: '' })).toBe('Not published');
    expect(ipnsNote({ root: 'bafy', ipns_name: 'k51' })).toBe('');
  });
});

describe('applySyncEvent', () => {
  const a = row({ id: 'a' });
  const b = row({ id: 'b' });

  it('replaces a known row in place and puts a new one first', () => {
    const moved = row({ id: 'b', state: 'syncing' });
    expect(applySyncEvent([a, b], moved)).toEqual([a, moved]);
    const added = row({ id: 'c' });
    expect(applySyncEvent([a, b], added)).toEqual([added, a, b]);
  });

  it('drops a removed row, and leaves the list alone for a folder it does not show', () => {
    const rows = [a, b];
    expect(applySyncEvent(rows, { id: 'a', removed: true })).toEqual([b]);
    expect(applySyncEvent(rows, { id: 'zzz', removed: true })).toBe(rows);
  });
});

describe('parseIgnoreText', () => {
  it('takes one pattern a line, dropping blank lines and CRs, keeping everything else as typed', () => {
    expect(parseIgnoreText('*.log\n\n  build/\r\n!keep.log\n# comment\n   \n')).toEqual({
      patterns: ['*.log', '  build/', '!keep.log', '# comment'],
      problems: [],
    });
    expect(parseIgnoreText('')).toEqual({ patterns: [], problems: [] });
  });

  it('names the line of a pattern the service would refuse', () => {
    const long = 'x'.repeat(MAX_IGNORE_PATTERN_LENGTH + 1);
    expect(parseIgnoreText(`ok\n\n${long}\nalso\u0000bad`).problems).toEqual([
      { line: 3, message: 'Line 3 is 1,025 characters long; a pattern can have at most 1,024.' },
      { line: 4, message: 'Line 4 contains a control character that no pattern can hold.' },
    ]);
    expect(parseIgnoreText('x'.repeat(MAX_IGNORE_PATTERN_LENGTH)).problems).toEqual([]);
  });

  it('round-trips with ignoreText, and samePatterns compares order too', () => {
    expect(parseIgnoreText(ignoreText(['a', 'b/']))).toEqual({ patterns: ['a', 'b/'], problems: [] });
    expect(samePatterns(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(samePatterns(['a', 'b'], ['b', 'a'])).toBe(false);
    expect(samePatterns(['a'], ['a', 'b'])).toBe(false);
  });
});

describe('addProblem and addFailure', () => {
  it('drop the parameter the service names and keep its reason, named after the folder', () => {
    expect(addProblem('Path: folder not found: /x.')).toBe('Folder not found: /x.');
    expect(addProblem('Path must be absolute.')).toBe('Path must be absolute.');
    expect(addFailure('report.pdf', 'Path: not a folder: /home/me/report.pdf.')).toBe('report.pdf: Not a folder: /home/me/report.pdf.');
  });
});

describe('syncAddCommand', () => {
  it('names the data folder and a dropped folder, quoted when they have to be', () => {
    expect(syncAddCommand(undefined)).toBe('pinfold sync add /path/to/folder');
    expect(syncAddCommand('/home/me/.local/share/pinfold')).toBe('pinfold sync add /path/to/folder --data /home/me/.local/share/pinfold');
    expect(syncAddCommand('/tmp/My Data', 'holiday photos')).toBe("pinfold sync add '/path/to/holiday photos' --data '/tmp/My Data'");
    expect(shellArgument('C:\\Users\\me\\Pinfold Data')).toBe('"C:\\Users\\me\\Pinfold Data"');
    expect(shellArgument("/a/$HOME/it's")).toBe("'/a/$HOME/it'\\''s'");
  });
});
