import * as dagCbor from '@ipld/dag-cbor';
import * as dagJson from '@ipld/dag-json';
import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import * as json from 'multiformats/codecs/json';
import * as raw from 'multiformats/codecs/raw';
import { BadInputError } from '../../base/errors.js';
import { MAX_NESTING, nestsDeeperThan } from '../read/nesting-depth.js';

/** Codecs whose blocks can carry links; every other codec (raw, json, libp2p-key...) is a leaf. */
export function canHaveLinks(codec: number): boolean {
  return codec === dagPb.code || codec === dagCbor.code || codec === dagJson.code;
}

/**
 * The CIDs a block links to, in block order. Throws when its links cannot be read: the block does not
 * decode under its codec, or nests deeper than MAX_NESTING (the decoders recurse, and deep enough
 * overflows the stack; every write path refuses such blocks, see {@link requireReadableLinks}).
 */
export function blockLinks(cid: CID, bytes: Uint8Array): CID[] {
  if (nestsDeeperThan(cid.code, bytes)) throw new Error(`it nests deeper than ${MAX_NESTING} levels`);
  switch (cid.code) {
    case dagPb.code:
      return dagPb.decode(bytes).Links.map((link) => link.Hash);
    case dagCbor.code:
      return collectCids(dagCbor.decode(bytes));
    case dagJson.code:
      return collectCids(dagJson.decode(bytes));
    case raw.code:
    case json.code:
    default:
      return [];
  }
}

/**
 * Refuses (400) a caller's block of a linking codec whose links cannot be read. Stored, such a block
 * would hide what it links to from GC and from the pin census; refused, it never gets in. `where` names
 * the write path, e.g. "car".
 */
export function requireReadableLinks(where: string, cid: CID, bytes: Uint8Array): void {
  if (!canHaveLinks(cid.code)) return;
  try {
    blockLinks(cid, bytes);
  } catch (error) {
    throw new BadInputError(`${where}: block ${cid.toString()} cannot be read under its codec: ${reasonOf(error)}`);
  }
}

/** Why a block's links could not be read, for a message. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** CIDs anywhere in a decoded IPLD value, depth-first, without recursion (values can be deep). */
function collectCids(value: unknown): CID[] {
  const found: CID[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object') continue;
    const cid = CID.asCID(item);
    if (cid !== null) {
      found.push(cid);
      continue;
    }
    if (item instanceof Uint8Array) continue;
    const children = Array.isArray(item) ? item : Object.values(item as Record<string, unknown>);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return found;
}
