import { CID } from 'multiformats/cid';
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../main/base/errors.js';
import { DnsLinkAnswers } from '../../../main/names/dnslink-answers.js';
import { foreignHit, KeyCache, ownedHit, seenForeign, usableEntry, DEFAULT_RECORD_TTL_MS } from '../../../main/names/key-cache.js';
import type { ValidRecord } from '../../../main/names/records.js';

const CID_A = CID.parse('bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am');

const record = (name: string, over: Partial<ValidRecord> = {}): ValidRecord => ({
  name,
  value: `/ipfs/${CID_A.toString()}`,
  target: { namespace: 'ipfs', cid: CID_A, rest: '' },
  sequence: 1n,
  validUntilMs: 100_000,
  ttlSeconds: 30,
  bytes: new Uint8Array([1]),
  ...over,
});

describe('cached answers of key names', () => {
  it('a name held here is good until its record ends; one held elsewhere for its TTL, never past its end', () => {
    expect(ownedHit(record('k')).freshUntilMs).toBe(100_000);
    expect(foreignHit(record('k'), 1_000).freshUntilMs).toBe(31_000);
    expect(foreignHit(record('k', { ttlSeconds: 0 }), 1_000).freshUntilMs).toBe(1_000 + DEFAULT_RECORD_TTL_MS);
    expect(foreignHit(record('k', { ttlSeconds: 3600 }), 1_000).freshUntilMs).toBe(100_000);
  });

  it('an entry is used while fresh and its record valid; a refusal while fresh', () => {
    const hit = foreignHit(record('k'), 0);
    expect(usableEntry(hit, 29_999)).toBe(hit);
    expect(usableEntry(hit, 30_000)).toBeUndefined();
    expect(usableEntry({ ...hit, freshUntilMs: Infinity }, 100_000)).toBeUndefined();
    const refused = { ok: false as const, error: new NotFoundError('none'), freshUntilMs: 15_000 };
    expect(usableEntry(refused, 14_999)).toBe(refused);
    expect(usableEntry(refused, 15_000)).toBeUndefined();
    expect(usableEntry(undefined, 0)).toBeUndefined();
  });

  it('only a valid record of a name held elsewhere competes again with the network', () => {
    expect(seenForeign(foreignHit(record('k'), 0), 50_000)?.name).toBe('k');
    expect(seenForeign(foreignHit(record('k'), 0), 100_000)).toBeUndefined();
    expect(seenForeign(ownedHit(record('k')), 0)).toBeUndefined();
  });

  it('peek answers a fresh record that points straight at content, not one that points at a name', () => {
    const cache = new KeyCache();
    cache.set('k', foreignHit(record('k'), 0), false);
    expect(cache.peek('k', 29_999)?.cid.equals(CID_A)).toBe(true);
    expect(cache.peek('k', 30_000)).toBeUndefined();
    const viaName = record('j', { value: '/ipns/k', target: { namespace: 'ipns', target: 'k', rest: '' } });
    cache.set('j', ownedHit(viaName), true);
    expect(cache.peek('j', 0)).toBeUndefined();
    expect(cache.get('j')?.ok).toBe(true);
  });

  it('names held elsewhere are bounded, the oldest making room; names held here are not', () => {
    const cache = new KeyCache(2);
    cache.set('own', ownedHit(record('own')), true);
    cache.set('a', foreignHit(record('a'), 0), false);
    cache.set('b', foreignHit(record('b'), 0), false);
    expect(cache.get('own')).toBeUndefined();
    cache.set('c', foreignHit(record('c'), 0), false);
    expect([cache.get('a'), cache.get('b') !== undefined, cache.get('c') !== undefined]).toEqual([undefined, true, true]);
    cache.set('own', ownedHit(record('own')), true);
    expect(cache.get('b')).toBeDefined();
  });
});

describe('DNSLink answers', () => {
  it('are reused for their time, none kept with a time of 0, and bounded', () => {
    const answers = new DnsLinkAnswers(1_000, 2);
    answers.keep('a.test', '/ipfs/x', 0);
    answers.keep('none.test', null, 0);
    expect(answers.fresh('a.test', 999)?.value).toBe('/ipfs/x');
    expect(answers.fresh('none.test', 999)?.value).toBeNull();
    expect(answers.fresh('a.test', 1_000)).toBeUndefined();
    answers.keep('c.test', '/ipfs/c', 0);
    expect(answers.fresh('a.test', 0)).toBeUndefined();
    const uncached = new DnsLinkAnswers(0);
    uncached.keep('a.test', '/ipfs/x', 0);
    expect(uncached.fresh('a.test', 0)).toBeUndefined();
  });
});
