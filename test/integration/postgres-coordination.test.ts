import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Change } from '../../main/base/changes.js';
import { openChangeChannel } from '../../main/store/pg/change-channel.js';
import { postgresCoordination } from '../../main/store/pg/coordination.js';
import { startPostgres, type PostgresServer } from '../helpers/engines/postgres.js';
import { deferred } from '../helpers/deferred.js';
import { queryDatabase, waitingAdvisoryLocks } from './postgres-instances-helpers.js';
import { until } from '../helpers/until.js';
import pg from 'pg';

/**
 * The PostgreSQL parts several instances coordinate with (store/pg/coordination.ts), each instance played by
 * its own coordination object on one real database: the GC lock, the GC leader, the change channel.
 */
describe('coordination of instances on PostgreSQL', () => {
  let postgres: PostgresServer;
  let url: string;
  beforeAll(async () => {
    postgres = await startPostgres();
    url = await postgres.createDatabase('coordination');
  });
  afterAll(async () => {
    await postgres?.stop();
  });

  it('many shared holds across instances, more than the lock sessions, with an exclusive one waiting: all finish, the exclusive alone', async () => {
    const a = postgresCoordination(url);
    const b = postgresCoordination(url);
    try {
      const first = deferred();
      const started = deferred();
      const holding = a.gcLock.shared(async () => {
        started.resolve();
        await first.promise;
      });
      await started.promise;
      const log: string[] = [];
      const exclusive = b.gcLock.exclusive(async () => void log.push('exclusive'));
      await until('the exclusive request to wait', async () => ((await waitingAdvisoryLocks(url)) === 1 ? true : undefined), 10_000);
      // Ten more shared holds on A (its lock pool has 4 sessions): they queue behind the waiting exclusive one.
      const shared = Array.from({ length: 10 }, (_, i) => a.gcLock.shared(async () => void log.push(`shared ${i}`)));
      expect(log).toEqual([]);
      first.resolve();
      await Promise.all([holding, exclusive, ...shared]);
      expect(log[0]).toBe('exclusive');
      expect(log).toHaveLength(11);
      // Every hold let go: a new exclusive one is granted at once.
      await b.gcLock.exclusive(async () => undefined);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("exactly one leader; when the leader's session dies, another takes the lead on its next attempt", async () => {
    const leads: string[] = [];
    const a = postgresCoordination(url);
    const b = postgresCoordination(url);
    try {
      const leaderA = a.gcLeadership((now) => leads.push(`a ${now}`));
      const leaderB = b.gcLeadership((now) => leads.push(`b ${now}`));
      expect(await leaderA.attempt()).toBe(true);
      expect(await leaderB.attempt()).toBe(false);
      expect(await leaderA.attempt()).toBe(true);
      // The leader's session is killed (as a kill -9 of its process ends it).
      await queryDatabase(url, "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = $1", [
        Number(BigInt('8097880343609477') & 0xffffffffn),
      ]);
      await until('A to notice it lost the lead', async () => (leaderA.leads() ? undefined : true), 10_000);
      expect(await leaderB.attempt()).toBe(true);
      expect(await leaderA.attempt()).toBe(false);
      expect(leads).toEqual(['a true', 'a false', 'b true']);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('delivers a change to every listener, and after its session is lost, reconnects and asks for a resync', async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    const poolEnded = new Promise<void>((resolve) => pool.on('connect', (client) => client.once('end', () => resolve())));
    const heard: Change[] = [];
    let resyncs = 0;
    const channel = await openChangeChannel({ url, pool, onChange: (change) => heard.push(change), onResync: () => resyncs++, onError: () => undefined });
    try {
      channel.published({ kind: 'access-key', key: 'k1' });
      await until('the change to arrive', async () => (heard.length === 1 ? true : undefined), 10_000);
      expect(heard).toEqual([{ kind: 'access-key', key: 'k1' }]);
      // Not ours: ignored.
      await queryDatabase(url, "SELECT pg_notify('pinfold_changes', 'garbage')");
      await queryDatabase(url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN pinfold_changes'");
      await until('the listener to come back', async () => (resyncs === 1 ? true : undefined), 10_000);
      channel.published({ kind: 'ipns-name', key: 'k51x' });
      await until('the change after the reconnect', async () => (heard.length === 2 ? true : undefined), 10_000);
      expect(heard[1]).toEqual({ kind: 'ipns-name', key: 'k51x' });
    } finally {
      await channel.close();
      await pool.end();
      await poolEnded;
    }
  });
});
