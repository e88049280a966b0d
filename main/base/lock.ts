/**
 * The locks of the service, behind interfaces so that an in-process lock (today) can become a
 * database or lease lock (several service processes) without touching the domains.
 *
 * Locks are held explicitly: a function that needs a lock held takes the {@link LockHold} its caller
 * got from the lock, rather than taking the lock again (a second shared request queued behind a
 * waiting writer would deadlock) or being handed a lock that pretends to be held.
 */

/** Proof that the caller holds a lock, valid while the holder's callback runs. */
export interface LockHold {
  /** The lock this hold is of. */
  readonly lock: object;
  readonly exclusive: boolean;
  /** False once the holder's callback has settled: a hold kept past it proves nothing. */
  readonly active: boolean;
}

/**
 * Many shared holders or one exclusive holder. Writers are not starved: once an exclusive request
 * waits, new shared requests queue behind it.
 */
export interface ReadWriteLock {
  shared<T>(fn: (hold: LockHold) => Promise<T>): Promise<T>;
  exclusive<T>(fn: (hold: LockHold) => Promise<T>): Promise<T>;
}

/** Runs work one at a time per key, in call order; different keys proceed in parallel. */
export interface KeyedLock {
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
}

/** Throws unless `hold` is a live hold of `lock` (a programming error, never a client's). */
export function requireHeld(hold: LockHold, lock: object, what: string): void {
  if (hold.lock !== lock || !hold.active) throw new Error(`${what} needs its lock held by the caller`);
}
