import { publicKeyFromMultihash } from '@libp2p/crypto/keys';
import { base36 } from 'multiformats/bases/base36';
import { base58btc } from 'multiformats/bases/base58';
import { CID } from 'multiformats/cid';
import * as Digest from 'multiformats/hashes/digest';
import type { MultihashDigest } from 'multiformats/hashes/interface';
import { tryParseCid } from '../base/cid-text.js';
import { BadInputError } from '../base/errors.js';

export const LIBP2P_KEY_CODEC = 0x72;
const DAG_PB_CODEC = 0x70;
const IDENTITY = 0x00;
const SHA2_256 = 0x12;
const MAX_NAME_TEXT = 256;

/** An IPNS name reduced to its key: the canonical text is the base36 CIDv1 (libp2p-key), `k51...`/`k2k4...`. */
export interface IpnsName {
  /** Canonical form: CIDv1, libp2p-key codec, base36. */
  name: string;
  /** Multihash of the public key: identity (key inlined, Ed25519) or sha2-256 (RSA). */
  multihash: MultihashDigest;
  /** True when the text given was already the canonical form (gateways redirect otherwise). */
  canonical: boolean;
}

/**
 * Parses an IPNS name given as the key's CIDv1 (libp2p-key in any multibase, or the dag-pb form boxo
 * redirects from) or as a peer ID (`12D3KooW...` identity multihash, `Qm...` sha2-256 multihash).
 * Returns undefined for text that is not a key name at all (a DNS name, say).
 */
export function tryParseIpnsName(text: string): IpnsName | undefined {
  if (text.length === 0 || text.length > MAX_NAME_TEXT) return undefined;
  const multihash = peerIdMultihash(text) ?? cidMultihash(text);
  if (multihash === undefined || !isKeyMultihash(multihash)) return undefined;
  const name = CID.createV1(LIBP2P_KEY_CODEC, multihash).toString(base36);
  return { name, multihash, canonical: name === text };
}

/**
 * An IPNS name a request gives as text (white space trimmed); text that names no key is a 400 naming `param`
 * (the names routes' schemas check first that some text was given).
 */
export function parseIpnsName(text: string, param: string): IpnsName {
  const parsed = tryParseIpnsName(text.trim());
  if (parsed === undefined) throw new BadInputError(`${param} is not a valid IPNS name (expected k51... or a peer ID)`);
  return parsed;
}

/**
 * The canonical name of a public key multihash, given as its bytes: @libp2p/crypto hands out digests typed
 * against an older multiformats, so they are decoded again here rather than cast.
 */
export function nameFromMultihash(multihashBytes: Uint8Array): string {
  return CID.createV1(LIBP2P_KEY_CODEC, Digest.decode(Uint8Array.from(multihashBytes))).toString(base36);
}

/** The legacy peer-ID text (base58btc multihash, no multibase prefix) of a canonical name. */
export function peerIdText(name: IpnsName): string {
  return base58btc.baseEncode(name.multihash.bytes);
}

function peerIdMultihash(text: string): MultihashDigest | undefined {
  // Bare base58btc multihashes: `Qm` = sha2-256 (RSA), `1...` = identity (Ed25519, secp256k1).
  if (!text.startsWith('Qm') && !text.startsWith('1')) return undefined;
  try {
    return Digest.decode(base58btc.baseDecode(text));
  } catch {
    return undefined;
  }
}

function cidMultihash(text: string): MultihashDigest | undefined {
  const cid = tryParseCid(text);
  if (cid === undefined || cid.version !== 1) return undefined;
  if (cid.code !== LIBP2P_KEY_CODEC && cid.code !== DAG_PB_CODEC) return undefined;
  return cid.multihash;
}

function isKeyMultihash(multihash: MultihashDigest): boolean {
  if (multihash.code === SHA2_256) return multihash.digest.length === 32;
  if (multihash.code !== IDENTITY) return false;
  try {
    publicKeyFromMultihash(multihash as MultihashDigest<0x00>);
    return true;
  } catch {
    return false;
  }
}
