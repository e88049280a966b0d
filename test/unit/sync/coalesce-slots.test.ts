import { describe, it, expect } from 'vitest';
import { ancestorsOf, replaySlots, type Slot } from '../../../main/sync/coalesce-slots.js';
import type { RawEvent } from '../../../main/sync/coalescer.js';

const ev = (kind: RawEvent['kind'], path: string, extra: Partial<RawEvent> = {}): RawEvent => ({ kind, path, at: 0, ...extra });
const same = (path: string): string => path;
const slotOf = (events: RawEvent[], key: string, keyOf = same): Slot | undefined => replaySlots(events, keyOf).get(key);

describe('replaySlots', () => {
  it("tells a path's kind at batch start from its first event", () => {
    const slots = replaySlots([ev('add', 'a'), ev('change', 'b'), ev('unlink', 'c'), ev('addDir', 'd'), ev('unlinkDir', 'e')], same);
    expect([...slots.values()].map((s) => [s.key, s.before, s.now])).toEqual([
      ['a', null, 'file'],
      ['b', 'file', 'file'],
      ['c', 'file', null],
      ['d', null, 'dir'],
      ['e', 'dir', null],
    ]);
  });

  it('keeps the identity of a pre-batch file from a delete seen before any write, and marks it deleted', () => {
    expect(slotOf([ev('unlink', 'a', { size: 1, ino: 2, mtimeMs: 3 }), ev('add', 'a', { size: 9 })], 'a')).toMatchObject({
      before: 'file',
      now: 'file',
      deleted: true,
      written: true,
      stat: { size: 9 },
      beforeStat: { size: 1, ino: 2, mtimeMs: 3 },
    });
    expect(slotOf([ev('change', 'a', { size: 5 }), ev('unlink', 'a', { size: 5 })], 'a')?.beforeStat).toBeUndefined();
  });

  it("deletes a folder's children with it, and brings a deleted folder back when a child appears", () => {
    const gone = replaySlots([ev('add', 'd/x'), ev('unlinkDir', 'd')], same);
    expect(gone.get('d/x')).toMatchObject({ now: null, written: false, deleted: false });
    const back = replaySlots([ev('unlinkDir', 'd'), ev('add', 'd/e/x')], same);
    expect(back.get('d')).toMatchObject({ before: 'dir', now: 'dir', deleted: true });
  });

  it('joins spellings of one key, remembering the first and the last, and skips the root', () => {
    const slots = replaySlots([ev('unlink', 'A.txt'), ev('add', '/a.txt/'), ev('add', '/')], (p) => p.toLowerCase());
    expect([...slots.keys()]).toEqual(['a.txt']);
    expect(slots.get('a.txt')).toMatchObject({ firstPath: 'A.txt', path: 'a.txt' });
  });
});

describe('ancestorsOf', () => {
  it('lists the folders above a key, nearest first', () => {
    expect(ancestorsOf('a/b/c')).toEqual(['a/b', 'a']);
    expect(ancestorsOf('a')).toEqual([]);
  });
});
