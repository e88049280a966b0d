import { inTransaction, type Db } from '../store/db/database.js';

/**
 * Egress is counted on every response, so writing it to SQLite per response would cost a write
 * transaction per request (and end the read cache's life each time). The meter adds bytes in memory
 * and writes them in one transaction every interval and at shutdown; limit checks and stats add what
 * is pending, so nothing a client sees is behind. A crash loses at most one interval of egress.
 */
export interface EgressMeter {
  add(accountId: number, bytes: number): void;
  pending(accountId: number): number;
  flush(): void;
  close(): void;
}

/** `write` adds bytes to the account's egress in the database (rolling the billing period as needed). */
export function createEgressMeter(db: Db, write: (accountId: number, bytes: number) => void, intervalMs = 250): EgressMeter {
  const pending = new Map<number, number>();
  const flush = (): void => {
    if (pending.size === 0) return;
    const batch = [...pending];
    pending.clear();
    inTransaction(db, () => {
      for (const [accountId, bytes] of batch) write(accountId, bytes);
    });
  };
  const timer = setInterval(flush, intervalMs);
  timer.unref();
  return {
    add(accountId, bytes) {
      if (bytes > 0) pending.set(accountId, (pending.get(accountId) ?? 0) + bytes);
    },
    pending: (accountId) => pending.get(accountId) ?? 0,
    flush,
    close() {
      clearInterval(timer);
      flush();
    },
  };
}
