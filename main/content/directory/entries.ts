import type { CID } from 'multiformats/cid';
import { utf8 } from './entry-name.js';
import { hashName, type NameHash } from './hamt-hash.js';
import type { DirectoryEntry } from './types.js';

/** A name with its UTF-8 bytes (for ordering and sizes) and, lazily, its HAMT hash. */
export interface NameKey {
  name: string;
  nameBytes: Uint8Array;
  hash?: NameHash;
}

/** A directory entry as a {@link NameKey}. */
export interface Entry extends DirectoryEntry, NameKey {}

export function toEntry(name: string, cid: CID, tsize: number | undefined): Entry {
  return { name, cid, tsize, nameBytes: utf8(name) };
}

/** Reuses the name bytes and hash an entry read from a (cached) shard may already carry. */
export function fromDirectoryEntry(entry: DirectoryEntry & Partial<NameKey>): Entry {
  return { name: entry.name, cid: entry.cid, tsize: entry.tsize, nameBytes: entry.nameBytes ?? utf8(entry.name), hash: entry.hash };
}

export function hashOf(entry: { nameBytes: Uint8Array; hash?: NameHash }): NameHash {
  entry.hash ??= hashName(entry.nameBytes);
  return entry.hash;
}

export function publicEntry(entry: Entry): DirectoryEntry {
  return { name: entry.name, cid: entry.cid, tsize: entry.tsize };
}
