import { createHash } from 'node:crypto';
import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { create as createDigest } from 'multiformats/hashes/digest';

/** Blocks with known CIDs, made at once (node:crypto's sha256, not the async WebCrypto digest). */

export function sha256Digest(bytes: Uint8Array): ReturnType<typeof createDigest<0x12>> {
  return createDigest(0x12, createHash('sha256').update(bytes).digest());
}

/** A raw block of `text` (UTF-8) or of the bytes given, under its CIDv1. */
export function rawBlock(text: string | Uint8Array): { cid: CID; bytes: Uint8Array } {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  return { cid: CID.createV1(raw.code, sha256Digest(bytes)), bytes };
}

/** The same multihash under the dag-pb codec (what the Kubo fixtures do). */
export function asDagPb(cid: CID): CID {
  return CID.createV1(dagPb.code, cid.multihash);
}
