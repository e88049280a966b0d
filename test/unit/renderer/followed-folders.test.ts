/** Followed folders' and conflicts' pure logic (issue 24): origin, version held, last check, state words, local changes, the follow form. */
import { describe, expect, it } from 'vitest';
import {
  checkedAgo,
  conflictSource,
  followInputProblems,
  followProgress,
  followOrigin,
  followRefusal,
  followStateDetail,
  followStateLook,
  heldVersion,
  isFollowed,
  lastCheck,
  localChangeKind,
  localChangesCount,
  parseGatewayLines,
  sourceGateway,
} from '../../../renderer/lib/followed-folders.js';
import type { SyncFolderView } from '../../../shared/api-types.js';

const NAME = 'k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8';
const NOW_MS = 1_700_000_100_000;

function followed(fields: Partial<SyncFolderView> = {}): SyncFolderView {
  return {
    id: 'f1',
    path: '/home/me/site',
    root: 'bafyroot',
    ipns_name: NAME,
    state: 'idle',
    files: 3,
    bytes: 3000,
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
    mode: 'follow',
    source: `/ipns/${NAME}`,
    from: [],
    seq: 42,
    checked_at: 1_700_000_080,
    local_changes: [],
    ...fields,
  };
}

describe('where a followed folder comes from', () => {
  it('is the gateway host of a gateway URL, else the name shortened in the middle', () => {
    expect(isFollowed(followed())).toBe(true);
    expect(isFollowed(followed({ mode: 'sync' }))).toBe(false);
    expect(followOrigin(followed())).toBe('k51qzi5uqu…lnv0v8');
    expect(followOrigin(followed({ source: `https://gw.example.org:8443/ipns/${NAME}` }))).toBe('gw.example.org:8443');
    // A row before the service filled the name in still says something.
    expect(followOrigin(followed({ ipns_name: '', source: '' }))).toBe('an IPNS name');
    expect(sourceGateway('/ipns/k51')).toBeNull();
    expect(sourceGateway('http://[::1]:5080/ipns/k51')).toBe('[::1]:5080');
  });
});

describe('the version held and the last check', () => {
  it('names the record sequence, or none before the first copy', () => {
    expect(heldVersion(followed({ seq: 1234 }))).toBe('Sequence 1,234');
    expect(heldVersion(followed({ root: '', seq: 0 }))).toBe('None yet');
  });

  it('counts seconds while the check is recent, then reads like any other time', () => {
    expect(checkedAgo(0, NOW_MS)).toBe('Not yet');
    expect(checkedAgo(NOW_MS / 1000 - 2, NOW_MS)).toBe('just now');
    expect(checkedAgo(NOW_MS / 1000 - 20, NOW_MS)).toBe('20 s ago');
    expect(checkedAgo(NOW_MS / 1000 - 59, NOW_MS)).toBe('59 s ago');
    expect(checkedAgo(NOW_MS / 1000 - 300, NOW_MS)).toBe('5 minutes ago');
    expect(lastCheck(NOW_MS / 1000 - 20, NOW_MS)).toBe('Checked 20 s ago');
    expect(lastCheck(0, NOW_MS)).toBe('Not checked yet');
  });
});

describe('a followed folder in words', () => {
  it('checks and updates rather than scans and syncs; waits before its first version', () => {
    expect(followStateLook(followed({ state: 'scanning' }))).toEqual({ label: 'Checking', tone: 'progress' });
    expect(followStateLook(followed({ state: 'syncing' }))).toEqual({ label: 'Updating', tone: 'progress' });
    expect(followStateLook(followed())).toEqual({ label: 'Up to date', tone: 'success' });
    expect(followStateLook(followed({ root: '' }))).toEqual({ label: 'Waiting', tone: 'warning' });
    expect(followStateLook(followed({ state: 'error' })).tone).toBe('danger');
  });

  it('says what it does, what is wrong (the service reason) and what happens next', () => {
    expect(followStateDetail(followed())).toBe('');
    expect(followStateDetail(followed({ state: 'paused' }))).toBe('Paused by you: newer versions are not fetched until you resume.');
    expect(followStateDetail(followed({ state: 'error', error: 'the source is offline' }))).toBe(
      'The source is offline. Pinfold tries again shortly, or now with Retry.',
    );
    expect(followStateDetail(followed({ state: 'paused', error: 'the folder /home/me/site is gone' }))).toBe(
      'The folder /home/me/site is gone. Pinfold tries again every few seconds, or now with Retry.',
    );
    expect(followStateDetail(followed({ state: 'scanning', root: '' }))).toBe('Looking for the latest version of the name…');
    expect(followStateDetail(followed({ state: 'scanning' }))).toBe('Looking for a newer version…');
    expect(followStateDetail(followed({ state: 'syncing', root: '' }))).toBe('Fetching the first version…');
    expect(followStateDetail(followed({ root: '', seq: 0 }))).toBe('No version of the name found yet: Pinfold keeps looking.');
    expect(followStateDetail(followed({ local_changes: [{ path: 'a.txt', change: 'modified', beside: [] }] }))).toBe(
      '1 local change: the incoming files are written beside them.',
    );
  });

  it('says bytes while fetching (blocks have no total), files while writing, and fills a bar only with a total', () => {
    expect(followProgress(followed({ state: 'syncing' }))).toEqual({ fraction: null, text: 'Fetching the new version…' });
    // While fetching, the runner counts blocks in files_done: never said as files.
    expect(followProgress(followed({ state: 'syncing', files_done: 40, bytes_done: 3 * 1024 * 1024 }))).toEqual({
      fraction: null,
      text: 'Fetching the new version: 3 MiB received',
    });
    expect(followProgress(followed({ state: 'syncing', files_done: 2, bytes_done: 1024, current_file: 'docs/a.md' }))).toEqual({
      fraction: null,
      text: 'Writing the new version: 2 files written',
    });
    expect(followProgress(followed({ state: 'syncing', root: '', files_done: 1, pending: 3, current_file: 'a.txt' }))).toEqual({
      fraction: 0.25,
      text: 'Writing the first version: 1 of 4 files',
    });
    expect(followStateDetail(followed({ state: 'syncing', bytes_done: 2048 }))).toBe('Fetching the new version: 2 KiB received');
  });

  it('names each kind of local change', () => {
    expect(localChangeKind('modified')).toBe('Modified here');
    expect(localChangeKind('added')).toBe('Added here');
    expect(localChangeKind('deleted')).toBe('Deleted here');
    expect(localChangesCount(1)).toBe('1 local change');
    expect(localChangesCount(1200)).toBe('1,200 local changes');
  });
});

describe('a conflict', () => {
  it('says where the newer record was seen', () => {
    expect(conflictSource({ source: 'pushed' })).toBe('pushed to this gateway');
    expect(conflictSource({ source: 'https://routing.example/routing/v1' })).toBe('through routing.example');
    expect(conflictSource({ source: 'somewhere' })).toBe('through somewhere');
  });
});

describe('the follow form', () => {
  it('takes gateways one per line, or separated by spaces or commas, each once', () => {
    expect(parseGatewayLines('')).toEqual([]);
    expect(parseGatewayLines(' https://a.example \n\nhttps://b.example, https://a.example  ')).toEqual(['https://a.example', 'https://b.example']);
  });

  it('asks for a name and a folder before asking the service', () => {
    expect(followInputProblems(' ', '')).toEqual({
      name: 'Type the IPNS name to follow, /ipns/<name>, or a gateway link ending in /ipns/<name>.',
      path: "Type the folder's full path, or choose it.",
    });
    expect(followInputProblems(NAME, '/home/me/site')).toEqual({});
  });

  it("puts the service's refusal beside the field its param names, without the parameter's name its label gives", () => {
    expect(followRefusal('name', 'name: "example.com" is not an IPNS name (a DNSLink domain cannot be followed)')).toEqual({
      field: 'name',
      message: '"example.com" is not an IPNS name (a DNSLink domain cannot be followed).',
    });
    expect(followRefusal('path', 'path: /home/me/site is already synced')).toEqual({ field: 'path', message: '/home/me/site is already synced.' });
    expect(followRefusal('from', 'from: at most 8 gateways in all')).toEqual({ field: 'from', message: 'At most 8 gateways in all.' });
    // A message that does not start with the parameter keeps its words.
    expect(followRefusal('path', 'the folder is gone')).toEqual({ field: 'path', message: 'The folder is gone.' });
    // The field comes from param alone: msg's wording places nothing.
    expect(followRefusal(undefined, 'path: /home/me/site is already synced')).toEqual({ field: null, message: 'Path: /home/me/site is already synced.' });
    expect(followRefusal('id', 'id: no such folder')).toEqual({ field: null, message: 'Id: no such folder.' });
    expect(followRefusal(undefined, 'sync folders are not available with --db')).toEqual({ field: null, message: 'Sync folders are not available with --db.' });
  });
});
