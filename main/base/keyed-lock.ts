import type { KeyedLock } from './lock.js';

export type { KeyedLock } from './lock.js';

/**
 * The in-process {@link KeyedLock}: a promise chain per key, dropped once its last holder is done.
 * (The names domain serializes publish, republish and rm of one name with it.)
 */
export function createKeyedLock(): KeyedLock {
  const tails = new Map<string, Promise<void>>();
  return {
    async run(key, work) {
      const previous = tails.get(key) ?? Promise.resolve();
      let release!: () => void;
      const done = new Promise<void>((resolve) => {
        release = resolve;
      });
      const tail = previous.then(() => done);
      tails.set(key, tail);
      await previous;
      try {
        return await work();
      } finally {
        release();
        if (tails.get(key) === tail) tails.delete(key);
      }
    },
  };
}
