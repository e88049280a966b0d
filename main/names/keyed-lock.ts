/**
 * Runs async work one at a time per key, in call order. Publishing reads `seq`, signs (async), then writes:
 * two publishes of one name must not interleave, while different names proceed in parallel.
 */
export interface KeyedLock {
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
}

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
