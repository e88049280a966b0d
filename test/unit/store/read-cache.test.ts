import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, inTransaction, stmt, type Db } from '../../../main/store/db/database.js';
import { cachedRead } from '../../../main/store/db/read-cache.js';

describe('cachedRead', () => {
  let dir = '';
  const open: Db[] = [];
  afterEach(async () => {
    for (const db of open.splice(0)) db.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function twoConnections(): Promise<[Db, Db]> {
    dir = await mkdtemp(join(tmpdir(), 'pinfold-cache-'));
    const a = openDatabase(join(dir, 'x.db'), {
      migrations: [{ version: 1, name: 't', sql: 'CREATE TABLE t (v INTEGER NOT NULL) STRICT; INSERT INTO t VALUES (1);' }],
    });
    const b = openDatabase(join(dir, 'x.db'), { migrations: [] });
    open.push(a, b);
    return [a, b];
  }

  const value = (db: Db): number => (db.prepare('SELECT v FROM t').get() as { v: number }).v;

  it('serves from memory while nothing changed, and reads again after a write on this connection', async () => {
    const [a] = await twoConnections();
    let reads = 0;
    const read = () => cachedRead(a, 'v', () => (reads++, value(a)));
    expect(read()).toBe(1);
    expect(read()).toBe(1);
    expect(reads).toBe(1);
    stmt(a, 'UPDATE t SET v = 2').run();
    expect(read()).toBe(2);
    expect(reads).toBe(2);
  });

  it('reads again after a write that answers rows (INSERT … RETURNING) on this connection', async () => {
    const [a] = await twoConnections();
    let reads = 0;
    const count = () => cachedRead(a, 'count', () => (reads++, (a.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n));
    expect(count()).toBe(1);
    expect(stmt(a, 'INSERT INTO t (v) VALUES (5) RETURNING v').get()).toEqual({ v: 5 });
    expect(count()).toBe(2);
    expect(reads).toBe(2);
  });

  it('reads again after another connection (another process) committed, from a later event-loop turn', async () => {
    const [a, b] = await twoConnections();
    expect(cachedRead(a, 'v', () => value(a))).toBe(1);
    b.prepare('UPDATE t SET v = 3').run();
    // Within the same turn the cached value stands.
    expect(cachedRead(a, 'v', () => value(a))).toBe(1);
    // Seen within RECHECK_MS (10 ms), on a later turn: turns until it shows, with a generous deadline.
    const deadline = Date.now() + 5000;
    let seen = cachedRead(a, 'v', () => value(a));
    while (seen !== 3 && Date.now() < deadline) {
      await new Promise((resolve) => setImmediate(resolve));
      seen = cachedRead(a, 'v', () => value(a));
    }
    expect(seen).toBe(3);
  });

  it('never caches inside a transaction, so a rolled-back value is not served afterwards', async () => {
    const [a] = await twoConnections();
    expect(() =>
      inTransaction(a, () => {
        a.prepare('UPDATE t SET v = 9').run();
        expect(cachedRead(a, 'v', () => value(a))).toBe(9);
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(cachedRead(a, 'v', () => value(a))).toBe(1);
  });
});
