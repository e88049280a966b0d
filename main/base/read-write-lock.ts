/**
 * An async read-write lock: many shared holders or one exclusive holder. Writers are not starved:
 * once an exclusive request waits, new shared requests queue behind it.
 */
export interface ReadWriteLock {
  shared<T>(fn: () => Promise<T>): Promise<T>;
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
}

export function createReadWriteLock(): ReadWriteLock {
  let readers = 0;
  let writing = false;
  const queue: { exclusive: boolean; start: () => void }[] = [];

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

  const run = <T>(exclusive: boolean, fn: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      queue.push({
        exclusive,
        start: () => {
          fn()
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

  return { shared: (fn) => run(false, fn), exclusive: (fn) => run(true, fn) };
}
