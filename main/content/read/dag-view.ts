import * as dagCbor from '@ipld/dag-cbor';
import * as dagJson from '@ipld/dag-json';
import * as dagPb from '@ipld/dag-pb';
import type { CID } from 'multiformats/cid';
import * as json from 'multiformats/codecs/json';
import * as raw from 'multiformats/codecs/raw';
import { NotAcceptableError, isAppError } from '../../base/errors.js';
import { CBOR_CODE } from './inspect-node.js';
import { MAX_NESTING, nestsDeeperThan } from './nesting-depth.js';

/**
 * The IPLD data model value of a block, for the codecs the service understands. A block that does not
 * decode under its codec, or nests deeper than MAX_NESTING, is content this service cannot convert: 406
 * (format=raw still serves its bytes), never the stack overflow or parser error it would otherwise be.
 */
export function decodeBlock(cid: CID, block: Uint8Array): unknown {
  if (nestsDeeperThan(cid.code, block)) {
    throw new NotAcceptableError(`cid: ${cid.toString()} nests deeper than ${MAX_NESTING} levels and is not decoded here; format=raw serves its bytes`);
  }
  try {
    return decodeKnown(cid, block);
  } catch (error) {
    if (isAppError(error)) throw error;
    throw new NotAcceptableError(`cid: ${cid.toString()} does not decode under its codec (${errorText(error)}); format=raw serves its bytes`);
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function decodeKnown(cid: CID, block: Uint8Array): unknown {
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
  return encodeView(cid, decodeBlock(cid, block), dagJson);
}

/** The dag-cbor form of a block. */
export function dagCborView(cid: CID, block: Uint8Array): Uint8Array {
  if (cid.code === dagCbor.code) return block;
  return encodeView(cid, decodeBlock(cid, block), dagCbor);
}

/** A value another codec decoded may hold what this one cannot write (plain JSON's floats as dag-cbor...): 406. */
function encodeView(cid: CID, value: unknown, codec: { name: string; encode(value: unknown): Uint8Array }): Uint8Array {
  try {
    return codec.encode(value);
  } catch (error) {
    throw new NotAcceptableError(`cid: ${cid.toString()} cannot be written as ${codec.name} (${errorText(error)})`);
  }
}
