import { readFile } from 'node:fs/promises';
import { CarReader } from '@ipld/car';
import { MemoryBlockstore } from 'blockstore-core/memory';
import { CID } from 'multiformats/cid';

/** The shared fixture kit beside the repository. */
export const fixturesDir = new URL('../../../fixtures/', import.meta.url);

export function fixturePath(relative: string): URL {
  return new URL(relative, fixturesDir);
}

/**
 * Loads every block of each CAR (not only those reachable from the header roots) into a MemoryBlockstore,
 * which keys blocks by multihash like the real store: a dag-pb block stored under a raw CID is found as dag-pb.
 */
export async function storeFromCars(...relativePaths: string[]): Promise<MemoryBlockstore> {
  const store = new MemoryBlockstore();
  for (const relative of relativePaths) {
    const reader = await CarReader.fromBytes(await readFile(fixturePath(relative)));
    for await (const { cid, bytes } of reader.blocks()) {
      await store.put(CID.asCID(cid) ?? CID.decode(cid.bytes), bytes);
    }
  }
  return store;
}

export const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

export const GC = 'gateway-conformance/fixtures/';
