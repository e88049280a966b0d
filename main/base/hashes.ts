import { hash } from 'node:crypto';
import type { CID } from 'multiformats/cid';
import { BadInputError } from './errors.js';
import { hashPool } from './hash-pool.js';

/** Multihash code of the identity "hash": the digest is the block itself, nothing is stored. */
export const IDENTITY_CODE = 0x00;
export const SHA2_256_CODE = 0x12;

interface HashAlgorithm {
  nodeName: string;
  digestLength: number;
}

/** Hash functions node:crypto computes natively (fast); blocks under any other hash are refused. */
const ALGORITHMS = new Map<number, HashAlgorithm>([
  [0x11, { nodeName: 'sha1', digestLength: 20 }],
  [0x12, { nodeName: 'sha256', digestLength: 32 }],
  [0x13, { nodeName: 'sha512', digestLength: 64 }],
  [0x14, { nodeName: 'sha3-512', digestLength: 64 }],
  [0x15, { nodeName: 'sha3-384', digestLength: 48 }],
  [0x16, { nodeName: 'sha3-256', digestLength: 32 }],
]);

export function isIdentity(cid: CID): boolean {
  return cid.multihash.code === IDENTITY_CODE;
}

export function isSupportedHash(code: number): boolean {
  return code === IDENTITY_CODE || ALGORITHMS.has(code);
}

/**
 * True when Pinfold can check a block against this CID: identity, or a hash function it computes with a
 * full-length digest. A block under any other CID can never be stored, so nothing may wait for one.
 */
export function isVerifiableCid(cid: CID): boolean {
  const { code, digest } = cid.multihash;
  if (code === IDENTITY_CODE) return true;
  return ALGORITHMS.get(code)?.digestLength === digest.byteLength;
}

/** The raw digest of `bytes` under the multihash function `code`. */
export function digestBytes(code: number, bytes: Uint8Array): Buffer {
  const algorithm = ALGORITHMS.get(code);
  if (algorithm === undefined) throw new BadInputError(`cid: unsupported multihash function 0x${code.toString(16)}`);
  return hash(algorithm.nodeName, bytes, 'buffer');
}

/** Like digestBytes, on a hash worker when the bytes are large and shared (see hash-pool.ts). */
export function digestBytesAsync(code: number, bytes: Uint8Array): Promise<Buffer> {
  const algorithm = ALGORITHMS.get(code);
  if (algorithm === undefined) throw new BadInputError(`cid: unsupported multihash function 0x${code.toString(16)}`);
  return hashPool().digest(algorithm.nodeName, bytes);
}

/** Multihash bytes (varint code, varint length, digest) for the codes we support, all below 0x80. */
export function multihashBytes(code: number, bytes: Uint8Array): Uint8Array {
  const digest = digestBytes(code, bytes);
  const out = new Uint8Array(2 + digest.length);
  out[0] = code;
  out[1] = digest.length;
  out.set(digest, 2);
  return out;
}

/**
 * Throws BadInputError unless `bytes` hash to the CID's multihash. Identity CIDs must carry the bytes
 * themselves. Truncated digests are refused: nothing Pinfold accepts produces them.
 */
export function verifyBlock(cid: CID, bytes: Uint8Array): void {
  const algorithm = checkedAlgorithm(cid, bytes);
  if (algorithm !== undefined && !hash(algorithm.nodeName, bytes, 'buffer').equals(cid.multihash.digest)) {
    throw new BadInputError(`block ${cid.toString()}: bytes do not match the CID's hash`);
  }
}

/** verifyBlock, hashing on a worker when the bytes are large and shared. */
export async function verifyBlockAsync(cid: CID, bytes: Uint8Array): Promise<void> {
  const algorithm = checkedAlgorithm(cid, bytes);
  if (algorithm !== undefined && !(await hashPool().digest(algorithm.nodeName, bytes)).equals(cid.multihash.digest)) {
    throw new BadInputError(`block ${cid.toString()}: bytes do not match the CID's hash`);
  }
}

/** Checks everything but the hash itself; undefined for identity CIDs (nothing left to hash). */
function checkedAlgorithm(cid: CID, bytes: Uint8Array): HashAlgorithm | undefined {
  const { code, digest } = cid.multihash;
  if (code === IDENTITY_CODE) {
    if (!Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength).equals(bytes)) {
      throw new BadInputError(`block ${cid.toString()}: bytes do not match the identity CID`);
    }
    return undefined;
  }
  const algorithm = ALGORITHMS.get(code);
  if (algorithm === undefined) {
    throw new BadInputError(`block ${cid.toString()}: unsupported multihash function 0x${code.toString(16)}`);
  }
  if (digest.byteLength !== algorithm.digestLength) {
    throw new BadInputError(`block ${cid.toString()}: multihash digest length ${digest.byteLength} is not ${algorithm.digestLength}`);
  }
  return algorithm;
}
