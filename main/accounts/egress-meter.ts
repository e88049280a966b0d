import type { Store, Transaction } from '../store/repositories/index.js';

/**
 * Egress is counted on every response, so writing it to the database per response would cost a write
 * transaction per request (and end the read cache's life each time). The meter adds bytes in memory
 * and writes them in one transaction every interval and at shutdown; limit checks and stats add what
 * is pending, so nothing a client sees is behind. A crash loses at most one interval of egress.
 */
export interface EgressMeter {
  add(accountId: number, bytes: number): void;
  pending(accountId: number): number;
  /** Writes what is pending; bytes whose write failed stay pending for the next flush. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** `write` adds bytes to the account's egress on the flush's transaction (rolling the billing period as needed). */
export function createEgressMeter(
  store: Store,
  write: (tx: Transaction, accountId: number, bytes: number) => Promise<void>,
  onError: (error: unknown) => void,
  intervalMs = 250,
): EgressMeter {
  const pending = new Map<number, number>();
  const add = (accountId: number, bytes: number): void => {
    if (bytes > 0) pending.set(accountId, (pending.get(accountId) ?? 0) + bytes);
  };
  let flushing: Promise<void> = Promise.resolve();
  const writeBatch = async (): Promise<void> => {
    if (pending.size === 0) return;
    const batch = [...pending];
    pending.clear();
    try {
      await store.transaction(async (tx) => {
        for (const [accountId, bytes] of batch) await write(tx, accountId, bytes);
      });
    } catch (error) {
      for (const [accountId, bytes] of batch) add(accountId, bytes);
      throw error;
    }
  };
  // One flush at a time, so a slow write never runs beside the next one.
  const flush = (): Promise<void> => (flushing = flushing.then(writeBatch, writeBatch));
  const timer = setInterval(() => void flush().catch(onError), intervalMs);
  timer.unref();
  return {
    add,
    pending: (accountId) => pending.get(accountId) ?? 0,
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
