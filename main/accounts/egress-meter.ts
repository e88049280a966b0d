import { createReadWriteLock } from '../base/read-write-lock.js';
import type { Store, Transaction } from '../store/repositories/index.js';

/**
 * Egress is counted on every response, so writing it to the database per response would cost a write
 * transaction per request (and end the read cache's life each time). The meter adds bytes in memory
 * and writes them in one transaction every interval and at shutdown; limit checks and stats add what
 * is pending, so nothing a client sees is behind. A crash loses at most one interval of egress.
 *
 * Bytes stay pending until the transaction that writes them has committed, and a read of the usage row
 * made through {@link EgressMeter.reading} never overlaps that commit: the row and the pending bytes then
 * count every byte once. SQLite's transactions never yield to another request, so this only matters on
 * an engine whose writes take real time (PostgreSQL), where a stats read could otherwise land between
 * the commit and the meter letting go of the bytes (counted twice) or before both (counted not at all).
 */
export interface EgressMeter {
  add(accountId: number, bytes: number): void;
  pending(accountId: number): number;
  /**
   * Runs a read of the usage rows outside any transaction while no flush is committing: read `pending`
   * right after it resolves (no await between) to add what is not written yet.
   */
  reading<T>(read: () => Promise<T>): Promise<T>;
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
  const queued = new Map<number, number>();
  /** The bytes of the flush under way: still pending until its transaction has committed. */
  const writing = new Map<number, number>();
  const commits = createReadWriteLock();
  // Armed by the first bytes after a flush, not an interval: an idle service wakes for nothing (4 times a
  // second before, each a flush of nothing; bench follow's idle CPU).
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const add = (accountId: number, bytes: number): void => {
    if (bytes <= 0) return;
    queued.set(accountId, (queued.get(accountId) ?? 0) + bytes);
    if (timer !== undefined || closed) return;
    timer = setTimeout(() => {
      timer = undefined;
      void flush().catch(onError);
    }, intervalMs);
    timer.unref();
  };
  const writeBatch = (): Promise<void> =>
    queued.size === 0
      ? Promise.resolve()
      : commits.exclusive(async () => {
          for (const [accountId, bytes] of queued) writing.set(accountId, bytes);
          queued.clear();
          try {
            await store.transaction(async (tx) => {
              for (const [accountId, bytes] of writing) await write(tx, accountId, bytes);
            });
          } catch (error) {
            for (const [accountId, bytes] of writing) add(accountId, bytes);
            throw error;
          } finally {
            writing.clear();
          }
        });
  let flushing: Promise<void> = Promise.resolve();
  // One flush at a time, so a slow write never runs beside the next one.
  const flush = (): Promise<void> => (flushing = flushing.then(writeBatch, writeBatch));
  return {
    add,
    pending: (accountId) => (queued.get(accountId) ?? 0) + (writing.get(accountId) ?? 0),
    reading: (read) => commits.shared(read),
    flush,
    async close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      await flush();
    },
  };
}
