import type { Permission } from '../../shared/api-types.js';

/**
 * Verified access keys held in memory so that authenticating a request costs no decryption and no
 * database read. Every path that deletes a key (or its account's keys) evicts it here in the same
 * call, so a deleted key stops working at once; a session key stops being served the second it
 * expires, whether or not the sweep has deleted its row yet.
 */
export interface CachedKey {
  accessKey: string;
  accountId: number;
  permissions: readonly Permission[];
  /** The secret as the client sends it in `X-Access-Secret`, as UTF-8 bytes (compared on every request). */
  secretBytes: Buffer;
  /** The base64url-decoded secret: the HMAC key of the signature mode. */
  hmacKey: Buffer;
  /** Unix second a session key stops working; null for an ordinary key. */
  expiresAt: number | null;
}

export interface KeyCache {
  /** The entry, unless absent or (a session key) expired at `nowSeconds`: an expired entry is dropped. */
  get(accessKey: string, nowSeconds: number): CachedKey | undefined;
  set(entry: CachedKey): void;
  evict(accessKey: string): void;
  /** Drops every entry (another instance's deletions may have been missed); each is read again on use. */
  clear(): void;
}

export function isExpired(key: Pick<CachedKey, 'expiresAt'>, nowSeconds: number): boolean {
  return key.expiresAt !== null && nowSeconds >= key.expiresAt;
}

export function createKeyCache(maxEntries = 10_000): KeyCache {
  const entries = new Map<string, CachedKey>();
  return {
    get(accessKey, nowSeconds) {
      const entry = entries.get(accessKey);
      if (entry === undefined || !isExpired(entry, nowSeconds)) return entry;
      entries.delete(accessKey);
      return undefined;
    },
    set(entry) {
      if (entries.size >= maxEntries) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(entry.accessKey, entry);
    },
    evict: (accessKey) => void entries.delete(accessKey),
    clear: () => entries.clear(),
  };
}
