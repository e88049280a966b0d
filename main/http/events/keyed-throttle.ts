/**
 * At most one call of `fire(key)` per `intervalMs` for each key, and never in the caller's own turn: a
 * request made while one is pending joins it, and the first request after a quiet interval fires on the
 * next turn of the event loop (after the transaction that caused it has committed). Used to coalesce the
 * event stream's usage (per account) and sync (per folder) notices.
 */
export interface KeyedThrottle<K> {
  request(key: K): void;
  /** Drops a pending call and the key's history. */
  cancel(key: K): void;
  close(): void;
}

export function createKeyedThrottle<K>(intervalMs: number, fire: (key: K) => void, now: () => number = Date.now): KeyedThrottle<K> {
  const lastFired = new Map<K, number>();
  const pending = new Map<K, NodeJS.Timeout>();
  return {
    request(key) {
      if (pending.has(key)) return;
      const last = lastFired.get(key);
      const wait = last === undefined ? 0 : Math.max(0, last + intervalMs - now());
      const timer = setTimeout(() => {
        pending.delete(key);
        lastFired.set(key, now());
        fire(key);
      }, wait);
      timer.unref();
      pending.set(key, timer);
    },
    cancel(key) {
      const timer = pending.get(key);
      if (timer) clearTimeout(timer);
      pending.delete(key);
      lastFired.delete(key);
    },
    close() {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
      lastFired.clear();
    },
  };
}
