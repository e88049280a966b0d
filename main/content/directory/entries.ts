import { CID } from 'multiformats/cid';
import { utf8 } from './entry-name.js';
import { hashName, type NameHash } from './hamt-hash.js';
import type { DirectoryEntry } from './types.js';

/** A name with its UTF-8 bytes (for ordering and sizes) and, lazily, its HAMT hash. */
export interface NameKey {
  name: string;
  nameBytes: Uint8Array;
  hash?: NameHash;
}

/**
 * A directory entry as a {@link NameKey}, with its CID's bytes: encoding and size estimates need
 * only those, so an entry read from a block builds its CID object only when asked for it.
 */
export interface Entry extends DirectoryEntry, NameKey {
  readonly cidBytes: Uint8Array;
}

const decoder = new TextDecoder();

class LinkEntry implements Entry {
  hash?: NameHash;
  private decoded: CID | undefined;

  constructor(
    readonly name: string,
    readonly nameBytes: Uint8Array,
    readonly cidBytes: Uint8Array,
    public tsize: number | undefined,
    cid?: CID,
  ) {
    this.decoded = cid;
  }

  get cid(): CID {
    this.decoded ??= CID.decode(this.cidBytes);
    return this.decoded;
  }
}

export function toEntry(name: string, cid: CID, tsize: number | undefined): Entry {
  return new LinkEntry(name, utf8(name), cid.bytes, tsize, cid);
}

/**
 * An entry read from a block: name and CID as the block holds them (the CID bytes already checked by
 * the decoder). Names are decoded as @ipld/dag-pb does (invalid UTF-8 becomes U+FFFD), but the
 * original bytes are kept, so the entry is written back exactly as it was read.
 */
export function entryFromLink(nameBytes: Uint8Array, cidBytes: Uint8Array, tsize: number | undefined): Entry {
  return new LinkEntry(decoder.decode(nameBytes), nameBytes, cidBytes, tsize);
}

/** Reuses an {@link Entry} as it is (entries are never mutated in ways a sharer would see). */
export function fromDirectoryEntry(entry: DirectoryEntry & Partial<NameKey>): Entry {
  if (entry instanceof LinkEntry) return entry;
  const made = new LinkEntry(entry.name, entry.nameBytes ?? utf8(entry.name), entry.cid.bytes, entry.tsize, entry.cid);
  made.hash = entry.hash;
  return made;
}

export function hashOf(entry: { nameBytes: Uint8Array; hash?: NameHash }): NameHash {
  entry.hash ??= hashName(entry.nameBytes);
  return entry.hash;
}

export function publicEntry(entry: Entry): DirectoryEntry {
  return { name: entry.name, cid: entry.cid, tsize: entry.tsize };
}
