import * as dagCbor from '@ipld/dag-cbor';
import * as dagJson from '@ipld/dag-json';
import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import * as json from 'multiformats/codecs/json';
import * as raw from 'multiformats/codecs/raw';

/** Codecs whose blocks can carry links; every other codec (raw, json, libp2p-key...) is a leaf. */
export function canHaveLinks(codec: number): boolean {
  return codec === dagPb.code || codec === dagCbor.code || codec === dagJson.code;
}

/** The CIDs a block links to, in block order. Throws when the block does not decode under its codec. */
export function blockLinks(cid: CID, bytes: Uint8Array): CID[] {
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
