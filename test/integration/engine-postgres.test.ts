import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresServer } from '../helpers/engines/postgres.js';

/** The real PostgreSQL the scale-out tests run on: started here, on loopback, and gone afterwards. */
describe('a real PostgreSQL for the tests', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('takes connections on loopback, makes separate databases, and keeps what is committed', async () => {
    const url = await server.createDatabase('engine_check');
    expect(url).toMatch(/^postgres:\/\/pinfold@127\.0\.0\.1:\d+\/engine_check$/);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('CREATE TABLE t (v integer)');
      await client.query('INSERT INTO t VALUES (1), (2)');
      const { rows } = await client.query<{ total: string }>('SELECT sum(v) AS total FROM t');
      expect(rows[0]?.total).toBe('3');
      const version = await client.query<{ server_version_num: string }>('SHOW server_version_num');
      expect(Number(version.rows[0]?.server_version_num)).toBeGreaterThanOrEqual(130000);
    } finally {
      await client.end();
    }
    await expect(server.createDatabase('engine_check')).rejects.toThrow(/already exists/);
  });
});
