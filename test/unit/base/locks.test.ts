import { describe, expect, it } from 'vitest';
import { createKeyedLock } from '../../../main/base/keyed-lock.js';
import { requireHeld, type LockHold } from '../../../main/base/lock.js';
import { createReadWriteLock } from '../../../main/base/read-write-lock.js';
import { deferred } from '../../helpers/deferred.js';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('read-write lock', () => {
  it('lets shared holders overlap and runs an exclusive holder alone', async () => {
    const lock = createReadWriteLock();
    const log: string[] = [];
    const first = deferred();
    const a = lock.shared(async () => {
      log.push('a in');
      await first.promise;
      log.push('a out');
    });
    const b = lock.shared(async () => void log.push('b'));
    await turn();
    expect(log).toEqual(['a in', 'b']);
    const w = lock.exclusive(async () => void log.push('w'));
    await turn();
    expect(log).toEqual(['a in', 'b']);
    first.resolve();
    await Promise.all([a, b, w]);
    expect(log).toEqual(['a in', 'b', 'a out', 'w']);
  });

  it('queues a shared request behind a waiting writer (writers are not starved)', async () => {
    const lock = createReadWriteLock();
    const log: string[] = [];
    const first = deferred();
    const a = lock.shared(async () => first.promise);
    const w = lock.exclusive(async () => void log.push('w'));
    const r = lock.shared(async () => void log.push('r'));
    await turn();
    expect(log).toEqual([]);
    first.resolve();
    await Promise.all([a, w, r]);
    expect(log).toEqual(['w', 'r']);
  });

  it('hands its holder a hold of this lock, valid only while the holder runs', async () => {
    const lock = createReadWriteLock();
    const other = createReadWriteLock();
    let kept: LockHold | undefined;
    await lock.shared(async (hold) => {
      expect(hold).toMatchObject({ lock, exclusive: false, active: true });
      expect(() => requireHeld(hold, lock, 'work')).not.toThrow();
      expect(() => requireHeld(hold, other, 'work')).toThrow(/needs its lock held/);
      kept = hold;
    });
    expect(kept?.active).toBe(false);
    expect(() => requireHeld(kept as LockHold, lock, 'work')).toThrow(/needs its lock held/);
    await lock.exclusive(async (hold) => expect(hold.exclusive).toBe(true));
  });

  it('releases the lock when the holder throws', async () => {
    const lock = createReadWriteLock();
    await expect(lock.exclusive(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(lock.exclusive(async () => 'next')).resolves.toBe('next');
  });
});

describe('keyed lock', () => {
  it('runs work of one key in call order and other keys at once', async () => {
    const lock = createKeyedLock();
    const log: string[] = [];
    const first = deferred();
    const a1 = lock.run('a', async () => {
      log.push('a1 in');
      await first.promise;
      log.push('a1 out');
    });
    const a2 = lock.run('a', async () => void log.push('a2'));
    const b = lock.run('b', async () => void log.push('b'));
    await turn();
    expect(log).toEqual(['a1 in', 'b']);
    first.resolve();
    await Promise.all([a1, a2, b]);
    expect(log).toEqual(['a1 in', 'b', 'a1 out', 'a2']);
  });

  it('goes on with the next holder after one throws', async () => {
    const lock = createKeyedLock();
    await expect(lock.run('k', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(lock.run('k', async () => 'next')).resolves.toBe('next');
  });
});
