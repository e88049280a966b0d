import { describe, expect, it } from 'vitest';
import type { SyncFolderRow } from '../../../main/store/repositories/sync.js';
import type { RunnerStatus } from '../../../main/sync/folder-status.js';
import { batchView, conflictView, folderView, NO_NAME_FACTS, shownName } from '../../../main/sync/folder-view.js';
import { PENDING_IPNS_NAME } from '../../../main/sync/runner.js';

const NAME = 'k51qzi5uqu5dk3v4rmjber23h16xnr23bsggmqqil9z2gduiis5se8dht36dam';
const CID_TEXT = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';

const row: SyncFolderRow = {
  id: 'f1',
  accountId: 1,
  path: '/home/me/photos',
  ipnsName: NAME,
  rootCid: CID_TEXT,
  state: 'error',
  error: 'stored failure',
  userPaused: false,
  deviceId: '42',
  caseInsensitive: false,
  ignorePatterns: ['*.log'],
  files: 3,
  bytes: 300,
  createdAt: 10,
  lastSyncedAt: 20,
  retention: null,
  mode: 'sync',
  followName: '',
  followSources: [],
  followSeq: '',
  checkedAt: 0,
  localChanges: [],
};

const live: RunnerStatus = {
  state: 'syncing',
  pending: 4,
  filesDone: 1,
  filesPending: 3,
  bytesDone: 100,
  bytesPending: 200,
  currentFile: 'a.jpg',
  error: '',
  unreadable: [{ path: 'locked.db', reason: 'EACCES' }],
  errors: [],
};

describe('folderView (a sync folder as the API shows it)', () => {
  it('a folder without a runner shows its stored state and error, and no progress', () => {
    const view = folderView(row, undefined, 7, NO_NAME_FACTS);
    expect(view).toMatchObject({ id: 'f1', path: row.path, root: CID_TEXT, ipns_name: NAME, state: 'error', error: 'stored failure' });
    expect(view).toMatchObject({ pending: 0, current_file: '', files_done: 0, bytes_done: 0, bytes_pending: 0, unreadable: [] });
    expect(view).toMatchObject({
      files: 3,
      bytes: 300,
      last_synced_at: 20,
      created_at: 10,
      ignore: ['*.log'],
      history_bytes: 7,
      public: false,
      conflict: null,
    });
    expect(view.mode).toBe('sync');
  });

  it("a running folder's live status wins, its empty error included", () => {
    const view = folderView(row, live, 0, { public: true, conflict: null });
    expect(view).toMatchObject({ state: 'syncing', error: '', pending: 4, current_file: 'a.jpg', files_done: 1, bytes_done: 100, bytes_pending: 200 });
    expect(view.unreadable).toEqual([{ path: 'locked.db', reason: 'EACCES' }]);
    expect(view.public).toBe(true);
  });

  it('shows the followed name for a followed folder, none while its own is still to be made', () => {
    expect(shownName(row)).toBe(NAME);
    expect(shownName({ ...row, ipnsName: PENDING_IPNS_NAME })).toBe('');
    expect(shownName({ ...row, ipnsName: '' })).toBe('');
    expect(shownName({ ...row, mode: 'follow', ipnsName: '', followName: NAME })).toBe(NAME);
    expect(folderView({ ...row, ipnsName: PENDING_IPNS_NAME }, undefined, 0, NO_NAME_FACTS).ipns_name).toBe('');
  });

  it('a record seen elsewhere: a plain /ipfs/<cid> value as its CID, any other value as it is', () => {
    const seen = { seq: 4, value: `/ipfs/${CID_TEXT}`, source: 'http://127.0.0.1:9', seenAt: 50 };
    expect(conflictView(seen)).toEqual({ seq: 4, value: CID_TEXT, seen_at: 50, source: 'http://127.0.0.1:9' });
    expect(conflictView({ ...seen, value: `/ipfs/${CID_TEXT}/docs` }).value).toBe(`/ipfs/${CID_TEXT}/docs`);
    expect(conflictView({ ...seen, value: `/ipns/${NAME}` }).value).toBe(`/ipns/${NAME}`);
  });

  it('a settled batch as the detail lists it', () => {
    const batch = { root: CID_TEXT, finishedAt: 30, added: 1, modified: 2, removed: 3, bytes: 4 };
    expect(batchView(batch)).toEqual({ root: CID_TEXT, finished_at: 30, added: 1, modified: 2, removed: 3, bytes: 4 });
  });
});
