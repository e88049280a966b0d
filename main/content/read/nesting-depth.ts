import * as dagCbor from '@ipld/dag-cbor';
import * as dagJson from '@ipld/dag-json';
import * as json from 'multiformats/codecs/json';
import { CBOR_CODE } from './inspect-node.js';

/**
 * Nesting the read side decodes. The codec libraries decode and encode recursively, a few stack frames a
 * level: about 4,000 levels overflow the stack (a RangeError, a 500), and a block of a few hundred KB holds
 * 100,000. Real IPLD data nests a few levels; 512 leaves a wide margin both ways.
 */
export const MAX_NESTING = 512;

/**
 * True when a dag-json/json/dag-cbor/cbor block nests arrays, maps (and CBOR tags) deeper than `limit`,
 * found by scanning its bytes without building anything. Other codecs, and bytes too broken to scan, are
 * false: the codec's own decoder then says what is wrong with them.
 */
export function nestsDeeperThan(codec: number, bytes: Uint8Array, limit = MAX_NESTING): boolean {
  if (codec === dagJson.code || codec === json.code) return jsonNestsDeeperThan(bytes, limit);
  if (codec === dagCbor.code || codec === CBOR_CODE) return cborNestsDeeperThan(bytes, limit);
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]); // [ {
const CLOSERS = new Set([0x5d, 0x7d]); // ] }

function jsonNestsDeeperThan(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < bytes.byteLength; at++) {
    const byte = bytes[at] as number;
    if (inString) {
      if (byte === BACKSLASH) at++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (OPENERS.has(byte)) {
      if (++depth > limit) return true;
    } else if (CLOSERS.has(byte)) {
      depth--;
    }
  }
  return false;
}

/** A CBOR head's argument (RFC 8949 section 3): the value and where the item's content starts; null when broken. */
function readHead(bytes: Uint8Array, at: number): { info: number; argument: number; next: number } | null {
  const info = (bytes[at] as number) & 0x1f;
  if (info < 24) return { info, argument: info, next: at + 1 };
  if (info === 31) return { info, argument: -1, next: at + 1 };
  const width = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : info === 27 ? 8 : 0;
  if (width === 0 || at + 1 + width > bytes.byteLength) return null;
  let argument = 0;
  // Past 2^53 the value is imprecise, but as a length it is already past the end of any block.
  for (let i = 1; i <= width; i++) argument = argument * 256 + (bytes[at + i] as number);
  return { info, argument, next: at + 1 + width };
}

function cborNestsDeeperThan(bytes: Uint8Array, limit: number): boolean {
  // Items still to read in each open array, map (two a pair), tag (one) or indefinite-length item (Infinity).
  const open: number[] = [];
  let at = 0;
  while (at < bytes.byteLength) {
    const major = (bytes[at] as number) >> 5;
    const head = readHead(bytes, at);
    if (head === null) return false;
    at = head.next;
    let children = 0;
    // An array, map or tag is a level even when empty, as `[]` is in JSON.
    if ((major === 4 || major === 5 || major === 6) && open.length + 1 > limit) return true;
    if (major === 7 && head.info === 31) {
      // "break": closes the innermost indefinite-length item, which then counts as one item of its parent.
      if (open.pop() !== Infinity) return false;
    } else if (major === 2 || major === 3) {
      if (head.argument === -1) children = Infinity;
      else at += head.argument;
    } else if (major === 4 || major === 5 || major === 6) {
      const count = major === 5 ? head.argument * 2 : major === 6 ? 1 : head.argument;
      children = head.argument === -1 ? Infinity : count;
    }
    if (children > 0) {
      open.push(children);
      continue;
    }
    // A whole item was read: it fills a place in its parent, which may complete the parent, and so on up.
    while (open.length > 0) {
      const last = open.length - 1;
      const left = (open[last] as number) - 1;
      if (left > 0) {
        open[last] = left;
        break;
      }
      open.pop();
    }
  }
  return false;
}
