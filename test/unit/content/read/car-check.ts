import { CarBlockIterator } from '@ipld/car';
import { CID } from 'multiformats/cid';
import { identity } from 'multiformats/hashes/identity';
import { sha256 } from 'multiformats/hashes/sha2';
import { equals } from 'uint8arrays/equals';

export interface ParsedCar {
  roots: string[];
  blocks: string[];
}

/** Parses a CARv1 with @ipld/car and checks every block against its CID's sha2-256 (or identity) hash. */
export async function parseCar(bytes: Uint8Array): Promise<ParsedCar> {
  const iterator = await CarBlockIterator.fromBytes(bytes);
  const roots = (await iterator.getRoots()).map((cid) => cid.toString());
  const blocks: string[] = [];
  for await (const block of iterator) {
    const cid = CID.decode(block.cid.bytes);
    const digest = cid.multihash.code === identity.code ? identity.digest(block.bytes) : await sha256.digest(block.bytes);
    if (!equals(digest.bytes, cid.multihash.bytes)) throw new Error(`block ${cid.toString()} does not match its hash`);
    blocks.push(cid.toString());
  }
  return { roots, blocks };
}
