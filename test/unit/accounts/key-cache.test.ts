import { describe, expect, it } from 'vitest';
import { createKeyCache, type CachedKey } from '../../../main/accounts/key-cache.js';

function entry(accessKey: string): CachedKey {
  return { accessKey, accountId: 1, permissions: ['read'], secret: 's', hmacKey: Buffer.from('s') };
}

describe('key cache', () => {
  it('holds, returns and evicts entries', () => {
    const cache = createKeyCache();
    cache.set(entry('a'));
    expect(cache.get('a')?.accessKey).toBe('a');
    cache.evict('a');
    expect(cache.get('a')).toBeUndefined();
    cache.evict('never-there');
  });

  it('is bounded: the oldest entry leaves when full', () => {
    const cache = createKeyCache(3);
    for (const key of ['a', 'b', 'c', 'd']) cache.set(entry(key));
    expect(cache.get('a')).toBeUndefined();
    expect(['b', 'c', 'd'].every((key) => cache.get(key) !== undefined)).toBe(true);
  });
});
