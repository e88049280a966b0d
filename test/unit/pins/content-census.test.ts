import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { describe, expect, it } from 'vitest';
import { contentCensus } from '../../../main/pins/content-census.js';

/** One raw block held (a leaf: the census asks its size only), counting the lookups. */
async function oneBlockStore() {
  const bytes = new TextEncoder().encode('census');
  const cid = CID.createV1(raw.code, await sha256.digest(bytes));
  const store = {
    removals: 0,
    lookups: 0,
    held: true,
    findBlock: async () => bytes,
    blockSize: async () => {
      store.lookups++;
      return store.held ? bytes.byteLength : undefined;
    },
  };
  return { cid, store };
}

describe('the pin census', () => {
  it('walks a DAG, unless a walk elsewhere just found it complete', async () => {
    const { cid, store } = await oneBlockStore();
    const census = contentCensus(store);
    expect(await census.census(cid)).toEqual({ bytes: 6, missing: 0 });
    expect(store.lookups).toBe(1);
    census.knownComplete?.(cid, 6);
    expect(await census.census(cid)).toEqual({ bytes: 6, missing: 0 });
    expect(store.lookups).toBe(1);
    // Told once, used once.
    await census.census(cid);
    expect(store.lookups).toBe(2);
  });

  it('walks again when a block may have left the store since (a garbage collection)', async () => {
    const { cid, store } = await oneBlockStore();
    const census = contentCensus(store);
    census.knownComplete?.(cid, 6);
    store.removals++;
    store.held = false;
    expect(await census.census(cid)).toEqual({ bytes: 0, missing: 1 });
    expect(store.lookups).toBe(1);
  });
});
