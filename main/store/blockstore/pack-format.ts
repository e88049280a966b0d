import { join } from 'node:path';

/**
 * A pack file is append-only: an 8-byte magic, then records `u16le multihash length | multihash |
 * u32le block length | block bytes`. The index points at the block bytes; the per-record header exists so a
 * pack can be checked or the index rebuilt from the packs alone.
 */
export const PACK_MAGIC = Buffer.from('PFPACK01', 'latin1');

/** Bytes of record framing before the block bytes, for a multihash of `multihashLength` bytes. */
export function recordHeaderLength(multihashLength: number): number {
  return 2 + multihashLength + 4;
}

export function encodeRecordHeader(multihash: Uint8Array, blockLength: number): Buffer {
  const header = Buffer.allocUnsafe(recordHeaderLength(multihash.byteLength));
  header.writeUInt16LE(multihash.byteLength, 0);
  header.set(multihash, 2);
  header.writeUInt32LE(blockLength, 2 + multihash.byteLength);
  return header;
}

export function packFileName(packsDir: string, packId: number): string {
  return join(packsDir, `${String(packId).padStart(8, '0')}.pack`);
}

/** The pack id a file in the packs folder is named after, or undefined for any other file. */
export function packIdOfFileName(name: string): number | undefined {
  const match = /^(\d{8,})\.pack$/.exec(name);
  return match === null ? undefined : Number(match[1]);
}

/** Bytes that `blocks` records take in a pack, headers included, from the sums the index keeps. */
export function recordsBytes(records: { blocks: number; blockBytes: number; multihashBytes: number }): number {
  return records.blockBytes + records.multihashBytes + records.blocks * recordHeaderLength(0);
}
