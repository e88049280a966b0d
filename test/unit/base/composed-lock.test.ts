import { describe, expect, it } from 'vitest';
import { requireHeld, type LockHold, type ReadWriteLock } from '../../../main/base/lock.js';
import { composeReadWriteLocks, createReadWriteLock } from '../../../main/base/read-write-lock.js';

/** A lock that records when its holds start and end, around another real lock. */
function recording(name: string, log: string[]): ReadWriteLock {
  const inner = createReadWriteLock();
  const wrap =
    (mode: 'shared' | 'exclusive') =>
    <T>(fn: (hold: LockHold) => Promise<T>): Promise<T> =>
      inner[mode](async (hold) => {
        log.push(`${name} ${mode} in`);
        try {
          return await fn(hold);
        } finally {
          log.push(`${name} ${mode} out`);
        }
      });
  return { shared: wrap('shared'), exclusive: wrap('exclusive') };
}

describe('composed read-write lock (in-process, then across instances)', () => {
  it('takes the first lock, then the second, in the same mode, and lets go in reverse', async () => {
    const log: string[] = [];
    const lock = composeReadWriteLocks(recording('local', log), recording('database', log));
    await lock.exclusive(async () => void log.push('work'));
    await lock.shared(async () => void log.push('work'));
    expect(log).toEqual([
      'local exclusive in',
      'database exclusive in',
      'work',
      'database exclusive out',
      'local exclusive out',
      'local shared in',
      'database shared in',
      'work',
      'database shared out',
      'local shared out',
    ]);
  });

  it('hands a hold of the composed lock itself (what requireHeld checks), live only while the holder runs', async () => {
    const lock = composeReadWriteLocks(createReadWriteLock(), createReadWriteLock());
    let kept: LockHold | undefined;
    await lock.shared(async (hold) => {
      expect(() => requireHeld(hold, lock, 'a pin write')).not.toThrow();
      expect(hold.exclusive).toBe(false);
      kept = hold;
    });
    expect(() => requireHeld(kept as LockHold, lock, 'a pin write')).toThrow(/needs its lock held/);
  });

  it('passes on the holder error and frees both locks', async () => {
    const first = createReadWriteLock();
    const second = createReadWriteLock();
    const lock = composeReadWriteLocks(first, second);
    await expect(lock.exclusive(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(first.exclusive(async () => 'first free')).resolves.toBe('first free');
    await expect(second.exclusive(async () => 'second free')).resolves.toBe('second free');
  });
});
