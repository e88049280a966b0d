/**
 * The one map key for a block: its multihash bytes as a latin1 string, one char a byte. Blocks are
 * keyed by multihash (not CID) so that any codec and CID version find the same block. latin1 rather
 * than base64: it is built and compared without an encoding step, and the block cache computes it on
 * every read (heldBlock); the key never leaves the process, so it need not be printable.
 */
export function multihashKey(multihash: Uint8Array): string {
  return Buffer.from(multihash.buffer, multihash.byteOffset, multihash.byteLength).toString('latin1');
}
