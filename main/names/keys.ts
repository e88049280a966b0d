import { createPrivateKey, type KeyObject } from 'node:crypto';
import { generateKeyPair, generateKeyPairFromSeed, privateKeyFromProtobuf, privateKeyToProtobuf } from '@libp2p/crypto/keys';
import { BadInputError } from '../base/errors.js';
import type { SealedBox } from '../base/sealed-box.js';
import { decodeKeyProtobuf, encodeKeyProtobuf, KeyTypeCode } from './key-protobuf.js';
import { nameFromMultihash } from './name-parse.js';

/** The key types an IPNS name can have here (contract section 7): Ed25519 and RSA. */
export type NameKey = Extract<ReturnType<typeof privateKeyFromProtobuf>, { type: 'Ed25519' | 'RSA' }>;

export const KEY_FORMATS = ['pem-pkcs8-cleartext', 'libp2p-protobuf-cleartext'] as const;
export type KeyFormat = (typeof KEY_FORMATS)[number];

// go-libp2p refuses RSA keys under 2048 bits and over 8192; keys it would refuse are no use as names.
const MIN_RSA_BITS = 2048;
const MAX_RSA_BITS = 8192;
const ED25519_SEED = 32;
const ED25519_PUBLIC = 32;

export function generateNameKey(): Promise<NameKey> {
  return generateKeyPair('Ed25519');
}

/** The canonical IPNS name (base36 CIDv1, libp2p-key) of a key. */
export function nameOfKey(key: NameKey): string {
  return nameFromMultihash(key.publicKey.toMultihash().bytes);
}

/** A user's private key as text, in one of the {@link KEY_FORMATS}, at most {@link MAX_SECRET_TEXT} characters. */
export interface KeyText {
  text: string;
  format: KeyFormat;
}

/** The longest key text read (an RSA 4096 PEM is about 3.3 KiB). */
export const MAX_SECRET_TEXT = 16 * 1024;

/**
 * Reads a user's private key. Every failure is a 400 naming `secret_key`: text that does not parse, a key
 * type other than Ed25519/RSA, an Ed25519 key whose stored public half is not its own.
 */
export async function importNameKey(secretKey: KeyText): Promise<NameKey> {
  const { text, format } = secretKey;
  const key = await (format === 'pem-pkcs8-cleartext' ? importPem(text) : importProtobufBase64(text));
  await checkKeyPair(key);
  return key;
}

/**
 * Parsers take any well-formed structure; an RSA key with a damaged factor or exponent parses and then signs
 * garbage. One signature checked against the public half proves the pair before records are signed with it.
 */
async function checkKeyPair(key: NameKey): Promise<void> {
  const probe = new TextEncoder().encode('pinfold ipns key check');
  let ok: boolean;
  try {
    ok = await key.publicKey.verify(probe, await key.sign(probe));
  } catch {
    ok = false;
  }
  if (!ok) throw new BadInputError('secret_key is not a consistent key pair (its signature does not verify)');
}

/** Private keys rest sealed under the master key, bound to their name so a sealed key cannot move rows. */
export function sealNameKey(box: SealedBox, name: string, key: NameKey): Buffer {
  const plain = privateKeyToProtobuf(key);
  try {
    return box.seal(plain, keyContext(name));
  } finally {
    plain.fill(0);
  }
}

export function openNameKey(box: SealedBox, name: string, sealed: Uint8Array): NameKey {
  const plain = box.open(sealed, keyContext(name));
  try {
    const key = privateKeyFromProtobuf(plain);
    if (key.type !== 'Ed25519' && key.type !== 'RSA') throw new Error(`stored key of ${name} has type ${key.type}`);
    return key;
  } finally {
    plain.fill(0);
  }
}

function keyContext(name: string): string {
  return `ipns-key:${name}`;
}

async function importPem(text: string): Promise<NameKey> {
  if (text.includes('ENCRYPTED PRIVATE KEY')) throw new BadInputError('secret_key is an encrypted PEM; only cleartext keys are accepted');
  if (!text.includes('-----BEGIN PRIVATE KEY-----')) throw new BadInputError('secret_key is not a PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----")');
  let keyObject: KeyObject;
  try {
    keyObject = createPrivateKey({ key: text, format: 'pem' });
  } catch {
    throw new BadInputError('secret_key does not parse as a PKCS#8 PEM private key');
  }
  const type = keyObject.asymmetricKeyType;
  if (type === 'ed25519') {
    const jwk = keyObject.export({ format: 'jwk' });
    if (typeof jwk.d !== 'string') throw new BadInputError('secret_key does not hold an Ed25519 private key');
    return generateKeyPairFromSeed('Ed25519', Buffer.from(jwk.d, 'base64url'));
  }
  if (type === 'rsa') {
    checkRsaBits(keyObject);
    const pkcs1 = keyObject.export({ type: 'pkcs1', format: 'der' });
    return rsaFromPkcs1(pkcs1);
  }
  if (type === 'ec') {
    const curve = keyObject.asymmetricKeyDetails?.namedCurve;
    throw unsupportedType(curve === 'secp256k1' ? 'secp256k1' : `ECDSA (${curve ?? 'unknown curve'})`);
  }
  throw unsupportedType(String(type));
}

async function importProtobufBase64(text: string): Promise<NameKey> {
  const compact = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 === 1) {
    throw new BadInputError('secret_key is not standard base64');
  }
  const bytes = Buffer.from(compact, 'base64');
  const message = decodeKeyProtobuf(bytes);
  if (message === undefined) throw new BadInputError('secret_key does not parse as a libp2p PrivateKey protobuf');
  switch (message.type) {
    case KeyTypeCode.Ed25519:
      return ed25519FromLibp2pData(message.data);
    case KeyTypeCode.RSA: {
      let keyObject: KeyObject;
      try {
        keyObject = createPrivateKey({ key: Buffer.from(message.data), format: 'der', type: 'pkcs1' });
      } catch {
        throw new BadInputError('secret_key holds an RSA key that does not parse as PKCS#1');
      }
      checkRsaBits(keyObject);
      return rsaFromPkcs1(message.data);
    }
    case KeyTypeCode.secp256k1:
      throw unsupportedType('secp256k1');
    case KeyTypeCode.ECDSA:
      throw unsupportedType('ECDSA');
    default:
      throw unsupportedType(`libp2p key type ${message.type}`);
  }
}

/**
 * libp2p stores Ed25519 private keys as seed ‖ public key (64 bytes); older go-libp2p appended the public
 * key once more (96 bytes). The public halves must be the seed's own, or the name would not be the signer's.
 */
async function ed25519FromLibp2pData(data: Uint8Array): Promise<NameKey> {
  if (data.length !== ED25519_SEED + ED25519_PUBLIC && data.length !== ED25519_SEED + 2 * ED25519_PUBLIC) {
    throw new BadInputError(`secret_key holds an Ed25519 key of ${data.length} bytes (expected 64 or 96)`);
  }
  const key = await generateKeyPairFromSeed('Ed25519', data.subarray(0, ED25519_SEED));
  const derived = key.publicKey.raw;
  for (let start = ED25519_SEED; start < data.length; start += ED25519_PUBLIC) {
    if (!Buffer.from(data.subarray(start, start + ED25519_PUBLIC)).equals(Buffer.from(derived))) {
      throw new BadInputError('secret_key holds an Ed25519 key whose public half does not match its private half');
    }
  }
  return key;
}

function rsaFromPkcs1(pkcs1: Uint8Array): NameKey {
  try {
    const key = privateKeyFromProtobuf(encodeKeyProtobuf(KeyTypeCode.RSA, pkcs1));
    if (key.type !== 'RSA') throw new Error('not RSA');
    return key;
  } catch {
    throw new BadInputError('secret_key holds an RSA key that does not parse');
  }
}

function checkRsaBits(keyObject: KeyObject): void {
  const bits = keyObject.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS || bits > MAX_RSA_BITS) {
    throw new BadInputError(`secret_key is an RSA key of ${bits} bits (expected ${MIN_RSA_BITS} to ${MAX_RSA_BITS})`);
  }
}

function unsupportedType(type: string): BadInputError {
  return new BadInputError(`secret_key has unsupported key type ${type}; only Ed25519 and RSA keys are accepted`);
}
