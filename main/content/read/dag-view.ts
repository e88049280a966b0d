import * as dagCbor from '@ipld/dag-cbor';
import * as dagJson from '@ipld/dag-json';
import * as dagPb from '@ipld/dag-pb';
import type { CID } from 'multiformats/cid';
import * as json from 'multiformats/codecs/json';
import * as raw from 'multiformats/codecs/raw';
import { NotAcceptableError } from '../../base/errors.js';
import { CBOR_CODE } from './inspect-node.js';

/** The IPLD data model value of a block, for the codecs the service understands. */
export function decodeBlock(cid: CID, block: Uint8Array): unknown {
  switch (cid.code) {
    case dagPb.code:
      return dagPb.decode(block);
    case dagCbor.code:
    case CBOR_CODE:
      return dagCbor.decode(block);
    case dagJson.code:
      return dagJson.decode(block);
    case json.code:
      return json.decode(block);
    case raw.code:
      return block;
    default:
      throw new NotAcceptableError(`cid: codec 0x${cid.code.toString(16)} of ${cid.toString()} cannot be converted`);
  }
}

/**
 * The dag-json form of a block (a dag-pb node becomes `{"Data":{"/":{"bytes":"..."}},"Links":[...]}`, Data
 * omitted when absent). What `dag/get` answers and what the gateway's HTML preview shows.
 */
export function dagJsonView(cid: CID, block: Uint8Array): Uint8Array {
  if (cid.code === dagJson.code) return block;
  return dagJson.encode(decodeBlock(cid, block));
}

/** The dag-cbor form of a block. */
export function dagCborView(cid: CID, block: Uint8Array): Uint8Array {
  if (cid.code === dagCbor.code) return block;
  return dagCbor.encode(decodeBlock(cid, block));
}
