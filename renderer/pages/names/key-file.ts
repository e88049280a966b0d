/**
 * A private key file, read in the page before it goes (only) to the local service's name/import: a PEM
 * PKCS#8 text (`-----BEGIN PRIVATE KEY-----`, as `openssl genpkey` or `ipfs key export --format=pem-pkcs8-cleartext`
 * write) or a libp2p PrivateKey protobuf (`ipfs key export`'s default), either as its bytes or as base64
 * text. Ed25519 or RSA: which one, and whether the key is sound, the service decides. What is plainly
 * not such a key is refused here with what to do instead.
 */
import type { NameImport } from '../../api/names.js';

export type KeyFormat = NameImport['format'];

export type KeyFile = { format: KeyFormat; secretKey: string } | { problem: string };

/** An RSA key of 16384 bits is about 13 KB in PEM; anything far larger is not a key. */
export const MAX_KEY_FILE_BYTES = 64 * 1024;

/** Field 1 (the key type), a varint: every libp2p PrivateKey protobuf starts with this byte. */
const PROTOBUF_KEY_TYPE_TAG = 0x08;

export function describeKeyFormat(format: KeyFormat): string {
  return format === 'pem-pkcs8-cleartext' ? 'PEM (PKCS#8) private key' : 'libp2p private key (protobuf)';
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function decodeText(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

export function readKeyFile(bytes: Uint8Array): KeyFile {
  if (bytes.length === 0) return { problem: 'This file is empty.' };
  if (bytes.length > MAX_KEY_FILE_BYTES) return { problem: 'This file is too large to be a private key.' };
  const text = decodeText(bytes);
  if (text !== null && text.includes('-----BEGIN')) return readPem(text);
  const compact = text?.replace(/\s+/g, '') ?? '';
  if (compact !== '' && /^[A-Za-z0-9+/]+={0,2}$/.test(compact) && compact.length % 4 === 0) {
    // Base64 text of the protobuf, as some tools print it (and as the API takes it).
    if (atob(compact.slice(0, 4)).charCodeAt(0) !== PROTOBUF_KEY_TYPE_TAG) return notAKey();
    return { format: 'libp2p-protobuf-cleartext', secretKey: compact };
  }
  if (bytes[0] !== PROTOBUF_KEY_TYPE_TAG) return notAKey();
  return { format: 'libp2p-protobuf-cleartext', secretKey: toBase64(bytes) };
}

function readPem(text: string): KeyFile {
  if (text.includes('-----BEGIN ENCRYPTED PRIVATE KEY-----')) {
    return { problem: 'This key is protected by a passphrase. Export it without one (cleartext), for example with `openssl pkcs8 -in key.pem -nocrypt`.' };
  }
  const pem = /-----BEGIN PRIVATE KEY-----[\s\S]*?-----END PRIVATE KEY-----/.exec(text);
  if (pem) return { format: 'pem-pkcs8-cleartext', secretKey: `${pem[0]}\n` };
  const kind = /-----BEGIN ([A-Z0-9 ]+)-----/.exec(text)?.[1] ?? 'PEM';
  if (/PUBLIC KEY|CERTIFICATE/.test(kind)) return { problem: `This file holds a ${kind.toLowerCase()}, not a private key.` };
  return {
    problem: `This file holds a "${kind}" block; Pinfold reads PKCS#8 ("BEGIN PRIVATE KEY"). Convert it with \`openssl pkcs8 -topk8 -nocrypt -in key.pem\`.`,
  };
}

function notAKey(): KeyFile {
  return { problem: 'This file is not a private key Pinfold can read: choose a PEM (PKCS#8) file or a key exported with `ipfs key export`.' };
}
