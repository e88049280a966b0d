import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETENTION,
  describeHistoryBytes,
  describeRestore,
  describeRetention,
  retentionChoice,
  retentionText,
  restorablePath,
  versionChanges,
  versionContentPath,
} from '../../../renderer/lib/sync-history.js';

describe('sync history in words', () => {
  it('maps the policy text to a choice and back', () => {
    expect(retentionChoice(DEFAULT_RETENTION)).toBe('default');
    expect(retentionChoice('all')).toBe('all');
    expect(retentionChoice('none')).toBe('none');
    expect(retentionChoice('1d:all')).toBe('custom');
    expect(retentionText('default', 'x')).toBe(DEFAULT_RETENTION);
    expect(retentionText('custom', ' 2d:all ')).toBe('2d:all');
    expect(retentionText('none', '2d:all')).toBe('none');
  });

  it('describes a policy', () => {
    expect(describeRetention(DEFAULT_RETENTION)).toBe('Every version of the last day, then one a day for 30 days, then one a week for a year.');
    expect(describeRetention('all')).toBe('Every version is kept.');
    expect(describeRetention('none')).toBe('Only the current version is kept.');
    expect(describeRetention('6h:all,7d:1d')).toBe('Every version of the last 6 hours, then one a day for 7 days.');
    expect(describeRetention('weird')).toBe('Kept as weird.');
  });

  it('summarises what a version changed', () => {
    expect(versionChanges({ added: 3, modified: 1, removed: 2 })).toEqual({ short: '+3 ~1 −2', label: '3 added, 1 modified, 2 removed' });
    expect(versionChanges({ added: 0, modified: 0, removed: 1 })).toEqual({ short: '−1', label: '1 removed' });
    expect(versionChanges({ added: 0, modified: 0, removed: 0 }).short).toBe('No changes');
  });

  it('says what a restore wrote', () => {
    const file = { path: 'a.txt', local: '/f/a.txt', kind: 'file' as const, beside: false, replaced: false };
    expect(describeRestore({ written: [file], unchanged: 0 })).toBe('Restored 1 file.');
    expect(describeRestore({ written: [file, { ...file, beside: true }, { ...file, kind: 'dir' }], unchanged: 4 })).toBe(
      'Restored 2 files: 4 already up to date, 1 written beside the local copy.',
    );
    expect(describeRestore({ written: [], unchanged: 2 })).toBe('Nothing to restore: 2 already up to date.');
    expect(describeRestore({ written: [{ ...file, replaced: true }], unchanged: 0 })).toBe('Restored 1 file: 1 replaced.');
  });

  it('builds paths', () => {
    expect(restorablePath('empty/')).toBe('empty');
    expect(versionContentPath('bafy', 'docs/a b#.txt', false)).toBe('/ipfs/bafy/docs/a%20b%23.txt');
    expect(versionContentPath('bafy', '', true)).toBe('/ipfs/bafy/');
    expect(describeHistoryBytes(0)).toMatch(/nothing/);
  });
});
