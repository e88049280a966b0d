import pg from 'pg';
import type { ReadWriteLock } from '../../base/lock.js';
import { advisoryReadWriteLock, GC_LEADER_KEY, GC_LOCK_KEY, SETUP_LOCK_KEY } from './advisory-lock.js';
import { openChangeChannel, type ChangeChannel, type ChangeChannelInit } from './change-channel.js';
import { advisoryLeadership, type Leadership } from './leadership.js';

/** Sessions the GC lock's holds may keep at once; one more holder waits for a session, not forever. */
const LOCK_CONNECTIONS = 4;
/** pg_notify is one short statement: two sessions keep announcements from queueing behind each other. */
const NOTIFY_CONNECTIONS = 2;

/**
 * What several instances on one PostgreSQL database need to agree on, besides the rows: the GC lock across
 * instances, the GC leader, and the change channel for in-memory caches. Each has sessions of its own,
 * apart from the store's pool, so no lock hold or LISTEN can starve the queries of the work it guards.
 */
export interface PostgresCoordination {
  /** The part across instances of `pins.gcLock` (shared: pin writes; exclusive: a GC cycle). */
  readonly gcLock: ReadWriteLock;
  /** Exclusive while a starting instance checks (or, first, writes) what all instances must share. */
  readonly setupLock: ReadWriteLock;
  gcLeadership(onChange: (leads: boolean) => void): Leadership;
  changes(handlers: Pick<ChangeChannelInit, 'onChange' | 'onResync' | 'onError'>): Promise<ChangeChannel>;
  close(): Promise<void>;
}

export function postgresCoordination(url: string): PostgresCoordination {
  // pool.end() resolves before the sockets have closed: close() waits for each, as the store's does.
  const ended: Promise<void>[] = [];
  const pools = [LOCK_CONNECTIONS, NOTIFY_CONNECTIONS].map((max) => {
    const pool = new pg.Pool({ connectionString: url, max });
    pool.on('connect', (client) => ended.push(new Promise((resolve) => client.once('end', () => resolve()))));
    // An idle session whose server went away errors on the pool: the next use reconnects.
    pool.on('error', () => undefined);
    return pool;
  });
  const [lockPool, notifyPool] = pools as [pg.Pool, pg.Pool];
  const opened: { close(): Promise<void> }[] = [];
  return {
    gcLock: advisoryReadWriteLock(lockPool, GC_LOCK_KEY),
    setupLock: advisoryReadWriteLock(lockPool, SETUP_LOCK_KEY),
    gcLeadership(onChange) {
      const leadership = advisoryLeadership({ url, key: GC_LEADER_KEY, onChange });
      opened.push(leadership);
      return leadership;
    },
    async changes(handlers) {
      const channel = await openChangeChannel({ url, pool: notifyPool, ...handlers });
      opened.push(channel);
      return channel;
    },
    async close() {
      for (const part of opened.splice(0).reverse()) await part.close();
      await Promise.all(pools.map((pool) => pool.end()));
      await Promise.all(ended);
    },
  };
}
