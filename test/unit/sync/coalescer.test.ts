import { describe, it, expect } from 'vitest';
import { coalesce, createCoalescer, DEFAULT_MAX_BATCH_MS, DEFAULT_SETTLE_MS, type RawEvent, type RawEventKind } from '../../../main/sync/coalescer.js';

let clock = 0;
const ev = (kind: RawEventKind, path: string, extra: Partial<RawEvent> = {}): RawEvent => ({
  kind,
  path,
  at: (clock += 10),
  ...extra,
});
const id = (ino: number, size = 100, mtimeMs = 5_000): Partial<RawEvent> => ({ ino, size, mtimeMs });

describe('coalesce: single paths', () => {
  it('reports a plain create, modify and delete as add, change and remove', () => {
    expect(coalesce([ev('add', 'a.txt', { size: 3 })])).toEqual([{ type: 'add', kind: 'file', path: 'a.txt', size: 3 }]);
    expect(coalesce([ev('change', 'a.txt')])).toEqual([{ type: 'change', kind: 'file', path: 'a.txt' }]);
    expect(coalesce([ev('unlink', 'a.txt')])).toEqual([{ type: 'remove', kind: 'file', path: 'a.txt' }]);
    expect(coalesce([ev('addDir', 'd')])).toEqual([{ type: 'add', kind: 'dir', path: 'd' }]);
    expect(coalesce([ev('unlinkDir', 'd')])).toEqual([{ type: 'remove', kind: 'dir', path: 'd' }]);
  });

  it('cancels a create followed by a delete of the same path', () => {
    expect(coalesce([ev('add', 'tmp.bin'), ev('change', 'tmp.bin'), ev('unlink', 'tmp.bin')])).toEqual([]);
    expect(coalesce([ev('addDir', 'x'), ev('add', 'x/y'), ev('unlink', 'x/y'), ev('unlinkDir', 'x')])).toEqual([]);
  });

  it('turns a delete followed by a create into a change carrying the newest stat', () => {
    expect(coalesce([ev('unlink', 'a.txt'), ev('add', 'a.txt', { size: 9 })])).toEqual([{ type: 'change', kind: 'file', path: 'a.txt', size: 9 }]);
  });

  it('keeps a delete when a change precedes it, and an add when changes follow it', () => {
    expect(coalesce([ev('change', 'a'), ev('unlink', 'a')])).toEqual([{ type: 'remove', kind: 'file', path: 'a' }]);
    expect(coalesce([ev('add', 'a', { size: 1 }), ev('change', 'a', { size: 2 })])).toEqual([{ type: 'add', kind: 'file', path: 'a', size: 2 }]);
    expect(coalesce([ev('unlink', 'a'), ev('add', 'a'), ev('unlink', 'a')])).toEqual([{ type: 'remove', kind: 'file', path: 'a' }]);
  });

  it('reports a file replaced by a folder as a remove and a folder add', () => {
    expect(coalesce([ev('unlink', 'n'), ev('addDir', 'n'), ev('add', 'n/f')])).toEqual([
      { type: 'remove', kind: 'file', path: 'n' },
      { type: 'add', kind: 'dir', path: 'n' },
      { type: 'add', kind: 'file', path: 'n/f' },
    ]);
  });

  it('ignores events for the root itself and trims stray slashes', () => {
    expect(coalesce([ev('unlinkDir', ''), ev('add', '/a/b.txt/')])).toEqual([{ type: 'add', kind: 'file', path: 'a/b.txt' }]);
  });
});

describe('coalesce: folders', () => {
  it('folds child deletes into the deleted folder, whatever the order', () => {
    const childrenFirst = [ev('unlink', 'd/a'), ev('unlink', 'd/e/b'), ev('unlinkDir', 'd/e'), ev('unlinkDir', 'd')];
    const folderFirst = [ev('unlinkDir', 'd'), ev('unlink', 'd/a'), ev('unlinkDir', 'd/e'), ev('unlink', 'd/e/b')];
    expect(coalesce(childrenFirst)).toEqual([{ type: 'remove', kind: 'dir', path: 'd' }]);
    expect(coalesce(folderFirst)).toEqual([{ type: 'remove', kind: 'dir', path: 'd' }]);
  });

  it('drops changes to children written before their folder was deleted', () => {
    expect(coalesce([ev('change', 'd/a'), ev('add', 'd/new'), ev('unlinkDir', 'd')])).toEqual([{ type: 'remove', kind: 'dir', path: 'd' }]);
  });

  it('replaces a folder deleted and re-created: remove, add, then only the children seen after', () => {
    const out = coalesce([ev('unlink', 'd/old'), ev('unlinkDir', 'd'), ev('addDir', 'd'), ev('add', 'd/new')]);
    expect(out).toEqual([
      { type: 'remove', kind: 'dir', path: 'd' },
      { type: 'add', kind: 'dir', path: 'd' },
      { type: 'add', kind: 'file', path: 'd/new' },
    ]);
  });

  it('revives a deleted folder when a child appears without an addDir', () => {
    const out = coalesce([ev('unlinkDir', 'd'), ev('add', 'd/x')]);
    expect(out).toEqual([
      { type: 'remove', kind: 'dir', path: 'd' },
      { type: 'add', kind: 'dir', path: 'd' },
      { type: 'add', kind: 'file', path: 'd/x' },
    ]);
  });

  it('orders new folders shallow first so parents exist before children', () => {
    const out = coalesce([ev('addDir', 'a/b/c'), ev('addDir', 'a'), ev('addDir', 'a/b'), ev('add', 'a/b/c/f')]);
    expect(out.map((c) => (c.type === 'move' ? c.to : c.path))).toEqual(['a', 'a/b', 'a/b/c', 'a/b/c/f']);
  });

  it('reports an addDir of a folder that already existed as an add (the reconciler treats it as ensure)', () => {
    expect(coalesce([ev('addDir', 'd')])).toEqual([{ type: 'add', kind: 'dir', path: 'd' }]);
  });
});

describe('coalesce: moves', () => {
  it('pairs a delete and a create of the same inode, size and mtime into one move', () => {
    expect(coalesce([ev('unlink', 'a.txt', id(7)), ev('add', 'sub/b.txt', id(7))])).toEqual([
      { type: 'move', kind: 'file', from: 'a.txt', to: 'sub/b.txt', removesSource: true, ino: 7, size: 100, mtimeMs: 5_000 },
    ]);
  });

  it('pairs by content fingerprint when one is given, also create-before-delete', () => {
    const out = coalesce([ev('add', 'copy/x', { size: 4, fingerprint: 'bafyX' }), ev('unlink', 'x', { size: 4, fingerprint: 'bafyX' })]);
    expect(out).toEqual([{ type: 'move', kind: 'file', from: 'x', to: 'copy/x', removesSource: true, size: 4, fingerprint: 'bafyX' }]);
  });

  it('does not pair when size, mtime or inode differ, or when identity is missing', () => {
    const cases: RawEvent[][] = [
      [ev('unlink', 'a', id(7)), ev('add', 'b', id(7, 101))],
      [ev('unlink', 'a', id(7)), ev('add', 'b', id(7, 100, 6_000))],
      [ev('unlink', 'a', id(7)), ev('add', 'b', id(8))],
      [ev('unlink', 'a'), ev('add', 'b', id(7))],
      [ev('unlink', 'a', { size: 100, ino: 7 }), ev('add', 'b', { size: 100, ino: 7 })],
    ];
    for (const events of cases) {
      expect(
        coalesce(events)
          .map((c) => c.type)
          .sort(),
      ).toEqual(['add', 'remove']);
    }
  });

  it('does not use the stat of a file rewritten in the batch as a move source', () => {
    const out = coalesce([ev('change', 'a', id(7)), ev('unlink', 'a', id(7)), ev('add', 'b', id(7))]);
    expect(out.map((c) => c.type)).toEqual(['remove', 'add']);
  });

  it('pairs a file folded into a deleted folder with its new place (folder moved)', () => {
    const out = coalesce([
      ev('unlink', 'old/a', id(1)),
      ev('unlink', 'old/b', id(2)),
      ev('unlinkDir', 'old'),
      ev('addDir', 'new'),
      ev('add', 'new/a', id(1)),
      ev('add', 'new/b', id(2)),
    ]);
    expect(out).toEqual([
      { type: 'remove', kind: 'dir', path: 'old' },
      { type: 'add', kind: 'dir', path: 'new' },
      { type: 'move', kind: 'file', from: 'old/a', to: 'new/a', removesSource: false, ...id(1) },
      { type: 'move', kind: 'file', from: 'old/b', to: 'new/b', removesSource: false, ...id(2) },
    ]);
  });

  it('treats a rename onto an existing name as a move that replaces the target', () => {
    const out = coalesce([ev('unlink', 'draft', id(3)), ev('change', 'final', id(3))]);
    expect(out).toEqual([{ type: 'move', kind: 'file', from: 'draft', to: 'final', removesSource: true, ...id(3) }]);
  });

  it('resolves a swap through a temporary name into two moves that keep their sources', () => {
    const out = coalesce([
      ev('unlink', 'a', id(1)),
      ev('add', 'tmp', id(1)),
      ev('unlink', 'b', id(2)),
      ev('add', 'a', id(2)),
      ev('unlink', 'tmp', id(1)),
      ev('add', 'b', id(1)),
    ]);
    expect(out).toEqual([
      { type: 'move', kind: 'file', from: 'b', to: 'a', removesSource: false, ...id(2) },
      { type: 'move', kind: 'file', from: 'a', to: 'b', removesSource: false, ...id(1) },
    ]);
  });

  it('pairs each side at most once: a copy of a moved file is an add', () => {
    const out = coalesce([ev('unlink', 'a', id(1)), ev('add', 'b', id(1)), ev('add', 'c', id(1))]);
    expect(out).toEqual([
      { type: 'move', kind: 'file', from: 'a', to: 'b', removesSource: true, ...id(1) },
      { type: 'add', kind: 'file', path: 'c', ...id(1) },
    ]);
  });
});

describe('coalesce: case-insensitive file systems', () => {
  it('folds case so a delete and a create differing only in case meet on one path', () => {
    expect(coalesce([ev('unlink', 'Photo.JPG'), ev('add', 'photo.jpg')], { caseInsensitive: false }).length).toBe(2);
    const out = coalesce([ev('add', 'Notes.txt'), ev('unlink', 'NOTES.TXT')], { caseInsensitive: true });
    expect(out).toEqual([]);
  });

  it('turns a case-only rename into a move to the new spelling', () => {
    const out = coalesce([ev('unlink', 'Photo.JPG', id(4)), ev('add', 'photo.jpg', id(4))], { caseInsensitive: true });
    expect(out).toEqual([{ type: 'move', kind: 'file', from: 'Photo.JPG', to: 'photo.jpg', removesSource: true, ...id(4) }]);
  });

  it('folds children of a deleted folder whatever their spelling', () => {
    const out = coalesce([ev('unlink', 'DOCS/a'), ev('unlinkDir', 'docs')], { caseInsensitive: true });
    expect(out).toEqual([{ type: 'remove', kind: 'dir', path: 'docs' }]);
  });

  it('folds Unicode normalization forms together', () => {
    const nfd = 'cafe\u0301.txt';
    const nfc = 'caf\u00e9.txt';
    expect(coalesce([ev('add', nfd), ev('unlink', nfc)], { caseInsensitive: true })).toEqual([]);
  });
});

describe('createCoalescer: settling', () => {
  it('holds a batch until the quiet period has passed since the last event', () => {
    const c = createCoalescer({ settleMs: 500 });
    expect(c.dueAt()).toBeUndefined();
    expect(c.take(1_000_000)).toBeUndefined();
    c.push({ kind: 'add', path: 'a', at: 1_000 });
    c.push({ kind: 'add', path: 'b', at: 1_300 });
    expect(c.dueAt()).toBe(1_800);
    expect(c.take(1_799)).toBeUndefined();
    expect(c.pending).toBe(2);
    const batch = c.take(1_800);
    expect(batch).toEqual({
      changes: [
        { type: 'add', kind: 'file', path: 'a' },
        { type: 'add', kind: 'file', path: 'b' },
      ],
      firstEventAt: 1_000,
      lastEventAt: 1_300,
      eventCount: 2,
    });
    expect(c.pending).toBe(0);
    expect(c.dueAt()).toBeUndefined();
  });

  it('settles under a continuous stream once maxBatchMs has passed since the first event', () => {
    const c = createCoalescer({ settleMs: 400, maxBatchMs: 2_000 });
    for (let at = 0; at <= 3_000; at += 100) c.push({ kind: 'change', path: 'log.txt', at });
    expect(c.dueAt()).toBe(2_000);
    expect(c.take(2_000)?.changes).toEqual([{ type: 'change', kind: 'file', path: 'log.txt' }]);
  });

  it('holds a settled batch while files are still being written, but never past maxBatchMs', () => {
    const c = createCoalescer({ settleMs: 400, maxBatchMs: 2_000 });
    c.push({ kind: 'add', path: 'a', at: 0 });
    expect(c.take(400, true)).toBeUndefined();
    expect(c.take(1_999, true)).toBeUndefined();
    expect(c.pending).toBe(1);
    c.push({ kind: 'add', path: 'b', at: 1_500 });
    expect(c.take(2_000, true)?.changes).toEqual([
      { type: 'add', kind: 'file', path: 'a' },
      { type: 'add', kind: 'file', path: 'b' },
    ]);
    c.push({ kind: 'add', path: 'c', at: 3_000 });
    expect(c.take(3_400, false)?.changes).toEqual([{ type: 'add', kind: 'file', path: 'c' }]);
  });

  it('cancels create+delete across pushes, and a batch of only cancelled events is empty but settles', () => {
    const c = createCoalescer();
    c.push({ kind: 'add', path: 'x.tmp2', at: 0 });
    c.push({ kind: 'unlink', path: 'x.tmp2', at: 5 });
    expect(c.take(5 + DEFAULT_SETTLE_MS)?.changes).toEqual([]);
    expect(c.flush()).toBeUndefined();
  });

  it('keeps the default timing within the latency budget', () => {
    expect(DEFAULT_SETTLE_MS).toBeGreaterThanOrEqual(200);
    expect(DEFAULT_SETTLE_MS).toBeLessThanOrEqual(800);
    expect(DEFAULT_MAX_BATCH_MS).toBeGreaterThan(DEFAULT_SETTLE_MS);
  });

  it('folds a large burst into one batch: nested folders, moves, edits and deletes together', () => {
    const c = createCoalescer({ settleMs: 400, caseInsensitive: false });
    const burst: RawEvent[] = [
      { kind: 'addDir', path: 'proj', at: 0 },
      ...Array.from({ length: 200 }, (_, i): RawEvent => ({ kind: 'add', path: `proj/f${i}`, at: 1 + i })),
      { kind: 'unlink', path: 'old/keep', at: 300, ...id(9) },
      { kind: 'unlinkDir', path: 'old', at: 301 },
      { kind: 'add', path: 'proj/keep', at: 302, ...id(9) },
      { kind: 'unlink', path: 'proj/f7', at: 303 },
      { kind: 'change', path: 'readme', at: 304 },
    ];
    for (const e of burst) c.push(e);
    const batch = c.take(704);
    expect(batch?.eventCount).toBe(burst.length);
    const changes = batch?.changes ?? [];
    expect(changes[0]).toEqual({ type: 'remove', kind: 'dir', path: 'old' });
    expect(changes[1]).toEqual({ type: 'add', kind: 'dir', path: 'proj' });
    expect(changes).toContainEqual({ type: 'move', kind: 'file', from: 'old/keep', to: 'proj/keep', removesSource: false, ...id(9) });
    expect(changes.filter((ch) => ch.type === 'add' && ch.kind === 'file')).toHaveLength(199);
    expect(changes.some((ch) => ch.type !== 'move' && ch.path === 'proj/f7')).toBe(false);
    expect(changes.at(-1)).toEqual({ type: 'change', kind: 'file', path: 'readme' });
  });
});
