import type { CreatedAccessKey, NewAccessKey } from '../../shared/api-types.js';

/**
 * A key's token for the IPFS Pinning Service API (contract section 11): `<access_key>.<access_secret>`, sent
 * as `Authorization: Bearer <token>`. Both halves are token68 characters (a UUID; base64url), and neither
 * holds a dot, so the first dot splits them.
 */
export function psaTokenOf(key: CreatedAccessKey): string {
  return `${key.access_key}.${key.access_secret}`;
}

/** The two halves of a token, or null when it is not `<key>.<secret>` (the caller answers 401, saying no more). */
export function parsePsaToken(token: string): CreatedAccessKey | null {
  const dot = token.indexOf('.');
  if (dot <= 0 || dot === token.length - 1) return null;
  return { access_key: token.slice(0, dot), access_secret: token.slice(dot + 1) };
}

/** A new key as its creation answers it: with its PSA token beside the secret, both shown this once. */
export function withPsaToken(key: CreatedAccessKey): NewAccessKey {
  return { access_key: key.access_key, access_secret: key.access_secret, psa_token: psaTokenOf(key) };
}
