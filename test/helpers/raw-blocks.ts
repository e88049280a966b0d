import { createHash } from 'node:crypto';
import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { create as createDigest } from 'multiformats/hashes/digest';

/** Blocks with known CIDs, made at once (node:crypto's sha256, not the async WebCrypto digest). */

export function sha256Digest(bytes: Uint8Array): ReturnType<typeof createDigest<0x12>> {
  return createDigest(0x12, createHash('sha256').update(bytes).digest());
}

/** The CIDv1 of `bytes` under the codec `code`. */
export function sha256Cid(code: number, bytes: Uint8Array): CID {
  return CID.createV1(code, sha256Digest(bytes));
}

/** A raw block of `text` (UTF-8) or of the bytes given, under its CIDv1. */
export function rawBlock(text: string | Uint8Array): { cid: CID; bytes: Uint8Array } {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  return { cid: sha256Cid(raw.code, bytes), bytes };
}

/** Stores a raw block of `text` in `blockstore` and answers its CID. */
export async function putRaw(blockstore: { put(cid: CID, bytes: Uint8Array): unknown }, text: string): Promise<CID> {
  const { cid, bytes } = rawBlock(text);
  await blockstore.put(cid, bytes);
  return cid;
}

/** The same multihash under the dag-pb codec (what the Kubo fixtures do). */
export function asDagPb(cid: CID): CID {
  return CID.createV1(dagPb.code, cid.multihash);
}
