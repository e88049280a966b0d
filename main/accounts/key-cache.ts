import type { Permission } from '../../shared/api-types.js';

/**
 * Verified access keys held in memory so that authenticating a request costs no decryption and no
 * database read. Every path that deletes a key (or its account's keys) evicts it here in the same
 * call, so a deleted key stops working at once.
 */
export interface CachedKey {
  accessKey: string;
  accountId: number;
  permissions: readonly Permission[];
  /** The secret as the client sends it in `X-Access-Secret`. */
  secret: string;
  /** The base64url-decoded secret: the HMAC key of the signature mode. */
  hmacKey: Buffer;
}

export interface KeyCache {
  get(accessKey: string): CachedKey | undefined;
  set(entry: CachedKey): void;
  evict(accessKey: string): void;
}

export function createKeyCache(maxEntries = 10_000): KeyCache {
  const entries = new Map<string, CachedKey>();
  return {
    get: (accessKey) => entries.get(accessKey),
    set(entry) {
      if (entries.size >= maxEntries) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(entry.accessKey, entry);
    },
    evict: (accessKey) => void entries.delete(accessKey),
  };
}
