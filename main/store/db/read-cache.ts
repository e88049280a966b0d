import { stmt, writeEpoch, type Db } from './database.js';

/**
 * Rows read on every request (the caller's account, its usage) are served from memory while the
 * database is unchanged. A write by this process moves the handle's write epoch (every write goes
 * through `stmt`), and a commit by another process (the CLI's `account credit` beside a running
 * server) moves SQLite's `data_version`, which is read at most once per event-loop turn and at most once
 * per {@link RECHECK_MS}: another process's commit is seen within 10 ms, from the next turn on.
 * (Reading `data_version` costs about 2 µs, a read transaction of its own; under load every request has a
 * turn to itself, so reading it per turn cost more than the rest of an authenticated request's lookups.)
 * Inside a transaction nothing is cached, so a rolled-back change is never served.
 */
interface CacheState {
  epoch: number;
  dataVersion: number;
  /** The event-loop turn in which `dataVersion` was last read. */
  checkedTurn: number;
  /** performance.now() when `dataVersion` was last read. */
  checkedAt: number;
  values: Map<string, unknown>;
}

const caches = new WeakMap<Db, CacheState>();
const MAX_ENTRIES = 4096;
/**
 * Another process's commit (the CLI's `account credit`) is noticed this soon; no request follows one faster
 * (starting the CLI alone takes longer). Each check is a read transaction with its file locks, about 10 µs
 * on this machine: checked every millisecond, it cost 1 µs of each 4 KiB gateway read (test/bench/gateway.ts).
 */
const RECHECK_MS = 10;

let turn = 0;
let turnEndScheduled = false;

function currentTurn(): number {
  if (!turnEndScheduled) {
    turnEndScheduled = true;
    setImmediate(() => {
      turn++;
      turnEndScheduled = false;
    });
  }
  return turn;
}

function dataVersion(db: Db): number {
  return (stmt(db, 'PRAGMA data_version').get() as { data_version: number }).data_version;
}

export function cachedRead<T>(db: Db, key: string, read: () => T): T {
  if (db.inTransaction) return read();
  const epoch = writeEpoch(db);
  const now = currentTurn();
  let state = caches.get(db);
  if (state && state.checkedTurn !== now) {
    const at = performance.now();
    if (at - state.checkedAt >= RECHECK_MS) {
      const version = dataVersion(db);
      if (version !== state.dataVersion) state = undefined;
      else {
        state.checkedTurn = now;
        state.checkedAt = at;
      }
    }
  }
  if (!state || state.epoch !== epoch) {
    state = { epoch, dataVersion: state?.dataVersion ?? dataVersion(db), checkedTurn: now, checkedAt: performance.now(), values: new Map() };
    caches.set(db, state);
  }
  if (state.values.has(key)) return state.values.get(key) as T;
  const value = read();
  if (state.values.size >= MAX_ENTRIES) state.values.clear();
  state.values.set(key, value);
  return value;
}
