import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, exec, insertEach, queryRow, queryRows, row, steps } from '../../../main/store/sql/query.js';
import { sql } from '../../../main/store/sql/sql.js';
import { REPOSITORY_ENGINES, type EngineDatabase } from '../../helpers/repository-engines.js';

/** Queries of the test's own over the meta table (key, bytes): what both executors must do alike. */
const valueOf = queryRow(
  (key: string) => sql`SELECT value FROM meta WHERE key = ${key}`,
  (raw: { value: Buffer } | undefined) => raw?.value ?? null,
);
const keys = queryRows(
  () => sql`SELECT key FROM meta ORDER BY key`,
  (raw: { key: string }) => raw.key,
);
const put = (key: string, value: number) => exec(sql`INSERT INTO meta (key, value) VALUES (${key}, ${new Uint8Array([value])})`);

describe.each(REPOSITORY_ENGINES.map((make) => [make().name, make] as const))('the %s executor', (_name, make) => {
  const engine = make();
  let database: EngineDatabase;
  beforeAll(() => engine.start());
  afterAll(() => engine.stop());
  beforeEach(async () => {
    database = await engine.open();
  });
  afterEach(() => database.close());

  it('runs atomic steps whole or not at all: a failure after two writes leaves neither', async () => {
    const failing = steps(
      function* () {
        yield* put('a', 1);
        yield* put('b', 2);
        yield* put('a', 3);
      },
      { atomic: true },
    );
    await expect(database.execute(failing)).rejects.toThrow();
    expect(await database.execute(keys)).toEqual([]);
  });

  it('answers a step with its statement’s rows or count, and a called query with its answer', async () => {
    const both = steps(
      function* (key: string) {
        const inserted = yield* put(key, 7);
        const found = yield* row<{ value: Buffer }>(sql`SELECT value FROM meta WHERE key = ${key}`);
        const again = yield* call(valueOf, key);
        return { inserted, found: found?.value, again };
      },
      { atomic: false },
    );
    expect(await database.execute(both, 'k')).toEqual({ inserted: 1, found: Buffer.from([7]), again: Buffer.from([7]) });
  });

  it('inserts each row, bytes included, and updates the ones already there through the conflict clause', async () => {
    await database.execute(steps(() => put('b', 1), { atomic: false }));
    const many = steps(
      (pairs: Array<[string, Uint8Array]>) =>
        insertEach({ table: 'meta', columns: ['key', 'value'], rows: pairs, conflict: 'ON CONFLICT (key) DO UPDATE SET value = excluded.value' }),
      { atomic: true },
    );
    await database.execute(many, [
      ['a', new Uint8Array([0, 255])],
      ['b', new Uint8Array([2])],
      ['c', new Uint8Array([])],
    ]);
    expect(await database.execute(keys)).toEqual(['a', 'b', 'c']);
    expect(await database.execute(valueOf, 'a')).toEqual(Buffer.from([0, 255]));
    expect(await database.execute(valueOf, 'b')).toEqual(Buffer.from([2]));
    expect(await database.execute(valueOf, 'c')).toEqual(Buffer.from([]));
  });
});
