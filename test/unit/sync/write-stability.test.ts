import { describe, expect, it } from 'vitest';
import { createWriteStability } from '../../../main/sync/write-stability.js';

const STILL_MS = 200;
const stat = (size: number, mtimeMs = 1000, ino = 7) => ({ size, mtimeMs, ino });

describe('write stability (the watcher rule, on a clock the test moves)', () => {
  it('reports a new file once its size and mtime held still for the stability time, then forgets it', () => {
    const writes = createWriteStability(STILL_MS);
    expect(writes.written('a.txt', stat(10), 0, undefined)).toBe(true);
    expect(writes.size).toBe(1);
    expect(writes.look('a.txt', stat(10), 100)).toBe('waiting');
    expect(writes.pendingNow().map(([rel, write]) => [rel, write.kind])).toEqual([['a.txt', 'add']]);
    expect(writes.look('a.txt', stat(10), 200)).toBe('still');
    expect(writes.size).toBe(0);
  });

  it('counts stillness again from the last change, whether a write or a poll saw it', () => {
    const writes = createWriteStability(STILL_MS);
    writes.written('a.txt', stat(10), 0, undefined);
    expect(writes.written('a.txt', stat(20), 150, undefined)).toBe(false);
    expect(writes.look('a.txt', stat(20), 300)).toBe('waiting');
    expect(writes.look('a.txt', stat(30), 340)).toBe('moving');
    expect(writes.look('a.txt', stat(30), 500)).toBe('waiting');
    expect(writes.look('a.txt', stat(30, 1000, 7), 540)).toBe('still');
  });

  it('a new mtime or inode with the same size is a change too (awaitWriteFinish looks at size only)', () => {
    const writes = createWriteStability(STILL_MS);
    writes.written('a.txt', stat(10, 1000), 0, undefined);
    expect(writes.look('a.txt', stat(10, 2000), 250)).toBe('moving');
    expect(writes.look('a.txt', stat(10, 2000, 8), 450)).toBe('moving');
    expect(writes.look('a.txt', stat(10, 2000, 8), 650)).toBe('still');
  });

  it('a write that changed nothing against the last known identity is no write; a different one is a change', () => {
    const writes = createWriteStability(STILL_MS);
    expect(writes.written('a.txt', stat(10), 0, stat(10))).toBe(false);
    expect(writes.size).toBe(0);
    expect(writes.written('a.txt', stat(11), 0, stat(10))).toBe(true);
    expect(writes.pendingNow()[0]?.[1].kind).toBe('change');
  });

  it('tells a poll whether the entry it took is still the pending one', () => {
    const writes = createWriteStability(STILL_MS);
    writes.written('a.txt', stat(10), 0, undefined);
    const taken = writes.pendingNow()[0]?.[1];
    if (taken === undefined) throw new Error('a.txt should be pending');
    writes.written('a.txt', stat(12), 10, undefined);
    expect(writes.isPending('a.txt', taken)).toBe(true);
    writes.drop('a.txt');
    writes.written('a.txt', stat(12), 20, undefined);
    expect(writes.isPending('a.txt', taken)).toBe(false);
  });

  it('drops files by name, under a folder, or all', () => {
    const writes = createWriteStability(STILL_MS);
    for (const rel of ['a/1', 'a/b/2', 'ab/3', 'c']) writes.written(rel, stat(1), 0, undefined);
    writes.dropUnder('a');
    expect(writes.pendingNow().map(([rel]) => rel)).toEqual(['ab/3', 'c']);
    writes.drop('c');
    expect(writes.has('c')).toBe(false);
    writes.clear();
    expect(writes.size).toBe(0);
  });
});
