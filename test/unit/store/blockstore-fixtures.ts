import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { create as createDigest } from 'multiformats/hashes/digest';

/** Test helpers for the block store: temp folders and blocks with known CIDs. */

export async function tempDir(prefix = 'pinfold-bs-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export function sha256Digest(bytes: Uint8Array): ReturnType<typeof createDigest<0x12>> {
  return createDigest(0x12, createHash('sha256').update(bytes).digest());
}

export function rawBlock(text: string | Uint8Array): { cid: CID; bytes: Uint8Array } {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  return { cid: CID.createV1(raw.code, sha256Digest(bytes)), bytes };
}

/** The same multihash under the dag-pb codec (what the Kubo fixtures do). */
export function asDagPb(cid: CID): CID {
  return CID.createV1(dagPb.code, cid.multihash);
}

export async function readAll(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of source) parts.push(part);
  return Buffer.concat(parts);
}

/** Every item of an async iterable, in order. */
export async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of source) items.push(item);
  return items;
}
