import { describe, it, expect } from 'vitest';
import type { Change } from '../../../main/sync/coalescer.js';
import type { Slot } from '../../../main/sync/coalesce-slots.js';
import { compareChanges, folderFates, identity, netChanges } from '../../../main/sync/net-changes.js';

const slot = (path: string, fields: Partial<Slot>): Slot => ({
  key: path.toLowerCase(),
  firstPath: path,
  path,
  before: null,
  now: null,
  deleted: false,
  written: false,
  stat: {},
  beforeStat: undefined,
  ...fields,
});
const idA = { size: 10, ino: 1, mtimeMs: 100 };

describe('folderFates', () => {
  it('tells removed folders (gone or a file now) from replaced ones (deleted and re-created)', () => {
    const fates = folderFates([
      slot('gone', { before: 'dir', now: null }),
      slot('filed', { before: 'dir', now: 'file' }),
      slot('again', { before: 'dir', now: 'dir', deleted: true }),
      slot('kept', { before: 'dir', now: 'dir' }),
      slot('new', { before: null, now: 'dir' }),
    ]);
    expect([...fates.removed]).toEqual(['gone', 'filed']);
    expect([...fates.replaced]).toEqual(['again']);
  });
});

describe('netChanges', () => {
  it('reads adds, changes and removes off the slots (file adds and changes ranked alike, by path)', () => {
    expect(
      netChanges([
        slot('n', { now: 'file', written: true, stat: { size: 1 } }),
        slot('c', { before: 'file', now: 'file', written: true }),
        slot('r', { before: 'file', now: null, deleted: true }),
        slot('same', { before: 'file', now: 'file' }),
      ]),
    ).toEqual([
      { type: 'remove', kind: 'file', path: 'r' },
      { type: 'change', kind: 'file', path: 'c' },
      { type: 'add', kind: 'file', path: 'n', size: 1 },
    ]);
  });

  it('pairs a deleted and a written file of one identity into a move that stands for the delete', () => {
    expect(
      netChanges([slot('old', { before: 'file', now: null, deleted: true, beforeStat: idA }), slot('new', { now: 'file', written: true, stat: idA })]),
    ).toEqual([{ type: 'move', kind: 'file', from: 'old', to: 'new', removesSource: true, ...idA }]);
  });

  it('leaves the remove when the source sits under a removed folder, and pairs no file with itself', () => {
    expect(
      netChanges([
        slot('d', { before: 'dir', now: null, deleted: true }),
        slot('d/old', { before: 'file', now: null, deleted: true, beforeStat: idA }),
        slot('new', { now: 'file', written: true, stat: idA }),
        slot('self', { before: 'file', now: 'file', deleted: true, written: true, beforeStat: idA, stat: idA }),
      ]),
    ).toEqual([
      { type: 'remove', kind: 'dir', path: 'd' },
      { type: 'move', kind: 'file', from: 'd/old', to: 'new', removesSource: false, ...idA },
      { type: 'change', kind: 'file', path: 'self', ...idA },
    ]);
  });

  it('empties a re-created folder: what is in it now is added', () => {
    expect(
      netChanges([slot('d', { before: 'dir', now: 'dir', deleted: true }), slot('d/x', { before: 'file', now: 'file', written: true, deleted: true })]),
    ).toEqual([
      { type: 'remove', kind: 'dir', path: 'd' },
      { type: 'add', kind: 'dir', path: 'd' },
      { type: 'add', kind: 'file', path: 'd/x' },
    ]);
  });
});

describe('identity', () => {
  it('pairs on size and fingerprint, or size, inode and mtime; nothing thinner', () => {
    expect(identity({ size: 1, fingerprint: 'x', ino: 2, mtimeMs: 3 })).toBe('f:1:x');
    expect(identity({ size: 1, ino: 2, mtimeMs: 3 })).toBe('i:1:2:3');
    expect(identity({ size: 1, ino: 2 })).toBeUndefined();
    expect(identity({ ino: 2, mtimeMs: 3 })).toBeUndefined();
  });
});

describe('compareChanges', () => {
  it('orders removes, folders shallow first, moves, then file adds and changes by path', () => {
    const changes: Change[] = [
      { type: 'change', kind: 'file', path: 'a' },
      { type: 'add', kind: 'file', path: 'b' },
      { type: 'move', kind: 'file', from: 'x', to: 'm', removesSource: true },
      { type: 'add', kind: 'dir', path: 'a/b' },
      { type: 'add', kind: 'dir', path: 'z' },
      { type: 'remove', kind: 'file', path: 'r' },
    ];
    expect(changes.sort(compareChanges).map((c) => (c.type === 'move' ? c.to : c.path))).toEqual(['r', 'z', 'a/b', 'm', 'a', 'b']);
  });
});
