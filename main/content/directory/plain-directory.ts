import { compareNameBytes } from './entry-name.js';
import type { Entry } from './entries.js';
import { encodePbNode, type EncodableLink } from './pb-encode.js';

/** UnixFS `Data` of a directory without mode or mtime, as the importer writes it. */
const DIRECTORY_DATA = Uint8Array.from([0x08, 0x01]);

/** A fresh array of a plain node's entries (callers sort and edit it). */
export function entriesOfPlainNode(entries: readonly Entry[]): Entry[] {
  return [...entries];
}

export function sortEntries(entries: Entry[]): Entry[] {
  // Existing links arrive sorted and the additions form a second sorted run: TimSort merges them in O(n).
  return entries.sort((a, b) => compareNameBytes(a.nameBytes, b.nameBytes));
}

/** Encodes a plain directory from entries sorted by name bytes; returns the block and its cumulative size. */
export function encodePlainDirectory(sorted: readonly Entry[]): { bytes: Uint8Array; size: number } {
  let size = 0;
  const links = sorted.map((entry): EncodableLink => {
    size += entry.tsize ?? 0;
    return { prefix: NO_PREFIX, name: entry.nameBytes, hash: entry.cidBytes, tsize: entry.tsize };
  });
  const bytes = encodePbNode(DIRECTORY_DATA, links);
  return { bytes, size: size + bytes.length };
}

const NO_PREFIX = new Uint8Array(0);
