import type { LockHold, ReadWriteLock } from './lock.js';

export type { LockHold, ReadWriteLock } from './lock.js';

/** The in-process {@link ReadWriteLock}: a FIFO queue of shared and exclusive requests. */
export function createReadWriteLock(): ReadWriteLock {
  let readers = 0;
  let writing = false;
  const queue: { exclusive: boolean; start: () => void }[] = [];
  const lock: ReadWriteLock = { shared: (fn) => run(false, fn), exclusive: (fn) => run(true, fn) };

  const pump = (): void => {
    while (queue.length > 0) {
      const next = queue[0] as { exclusive: boolean; start: () => void };
      if (next.exclusive) {
        if (writing || readers > 0) return;
        writing = true;
      } else {
        if (writing) return;
        readers++;
      }
      queue.shift();
      next.start();
    }
  };

  function run<T>(exclusive: boolean, fn: (hold: LockHold) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      queue.push({
        exclusive,
        start: () => {
          const hold = { lock, exclusive, active: true };
          fn(hold)
            .finally(() => {
              hold.active = false;
            })
            .then(resolve, reject)
            .finally(() => {
              if (exclusive) writing = false;
              else readers--;
              pump();
            });
        },
      });
      pump();
    });
  }

  return lock;
}

/**
 * One lock made of two: a hold takes `first`, then `second` inside it, and lets go in reverse. The service
 * composes its in-process lock (first: queues this process's holders without a database round trip) with
 * a lock across processes (second: a PostgreSQL advisory lock when several instances share a database).
 * Every holder takes them in this order, so no two holders can wait on each other in a cycle.
 */
export function composeReadWriteLocks(first: ReadWriteLock, second: ReadWriteLock): ReadWriteLock {
  const lock: ReadWriteLock = { shared: (fn) => run(false, fn), exclusive: (fn) => run(true, fn) };
  function run<T>(exclusive: boolean, fn: (hold: LockHold) => Promise<T>): Promise<T> {
    const take = (inner: ReadWriteLock, work: () => Promise<T>): Promise<T> => (exclusive ? inner.exclusive(work) : inner.shared(work));
    return take(first, () =>
      take(second, async () => {
        const hold = { lock, exclusive, active: true };
        try {
          return await fn(hold);
        } finally {
          hold.active = false;
        }
      }),
    );
  }
  return lock;
}
