import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REPOSITORY_ENGINES, repository, type EngineDatabase } from '../../helpers/repository-engines.js';

describe.each(REPOSITORY_ENGINES.map((make) => [make().name, make] as const))('MetaRepository on %s', (_name, make) => {
  const engine = make();
  let database: EngineDatabase;
  beforeAll(() => engine.start());
  afterAll(() => engine.stop());
  beforeEach(async () => {
    database = await engine.open();
  });
  afterEach(() => database.close());

  it('answers null for a key never set, then the bytes set, replaced by a second set', async () => {
    const meta = repository(database, 'meta');
    expect(await meta.metaValue('check')).toBeNull();
    await meta.setMetaValue('check', new Uint8Array([1, 2, 3]));
    expect(await meta.metaValue('check')).toEqual(Buffer.from([1, 2, 3]));
    await meta.setMetaValue('check', new Uint8Array([9]));
    expect(await meta.metaValue('check')).toEqual(Buffer.from([9]));
    expect(await meta.metaValue('other')).toBeNull();
  });
});
