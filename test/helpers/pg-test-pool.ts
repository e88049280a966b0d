import pg from 'pg';

/**
 * A pool for a test that calls PostgreSQL query functions directly, and its close: pool.end() resolves
 * before its clients' sockets have closed, so close() waits for them, and stopping the server afterwards
 * never ends a session still open (an uncaught 57P01 in the test run).
 */
export function testPool(connectionString: string): { pool: pg.Pool; close: () => Promise<void> } {
  const pool = new pg.Pool({ connectionString, max: 4 });
  const closed: Promise<void>[] = [];
  pool.on('connect', (client) => closed.push(new Promise((resolve) => client.once('end', () => resolve()))));
  return {
    pool,
    close: async () => {
      await pool.end();
      await Promise.all(closed);
    },
  };
}
