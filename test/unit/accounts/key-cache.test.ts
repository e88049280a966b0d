import { describe, expect, it } from 'vitest';
import { createKeyCache, isExpired, type CachedKey } from '../../../main/accounts/key-cache.js';

function entry(accessKey: string, expiresAt: number | null = null): CachedKey {
  return { accessKey, accountId: 1, permissions: ['read'], secretBytes: Buffer.from('s'), hmacKey: Buffer.from('s'), expiresAt };
}

const NOW = 1_800_000_000;

describe('key cache', () => {
  it('holds, returns and evicts entries', () => {
    const cache = createKeyCache();
    cache.set(entry('a'));
    expect(cache.get('a', NOW)?.accessKey).toBe('a');
    cache.evict('a');
    expect(cache.get('a', NOW)).toBeUndefined();
    cache.evict('never-there');
  });

  it('is bounded: the oldest entry leaves when full', () => {
    const cache = createKeyCache(3);
    for (const key of ['a', 'b', 'c', 'd']) cache.set(entry(key));
    expect(cache.get('a', NOW)).toBeUndefined();
    expect(['b', 'c', 'd'].every((key) => cache.get(key, NOW) !== undefined)).toBe(true);
  });

  it('never serves a session key from its expiry second on, and drops it; an ordinary key never expires', () => {
    const cache = createKeyCache();
    cache.set(entry('session', NOW + 10));
    cache.set(entry('ordinary'));
    expect(cache.get('session', NOW + 9)?.accessKey).toBe('session');
    expect(cache.get('session', NOW + 10)).toBeUndefined();
    // Dropped, not only hidden: an earlier clock does not bring it back.
    expect(cache.get('session', NOW)).toBeUndefined();
    expect(cache.get('ordinary', Number.MAX_SAFE_INTEGER)?.accessKey).toBe('ordinary');
    expect(isExpired({ expiresAt: NOW }, NOW - 1)).toBe(false);
    expect(isExpired({ expiresAt: NOW }, NOW)).toBe(true);
    expect(isExpired({ expiresAt: null }, NOW)).toBe(false);
  });
});
