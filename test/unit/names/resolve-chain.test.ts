import { CID } from 'multiformats/cid';
import { describe, expect, it } from 'vitest';
import { ChangeWaiters } from '../../../main/names/change-waiters.js';
import { newestRecord } from '../../../main/names/foreign-record.js';
import { foreignHit, ownedHit, type KeyHit } from '../../../main/names/key-cache.js';
import { parseContentPath } from '../../../main/names/content-path.js';
import type { ValidRecord } from '../../../main/names/records.js';
import { MAX_RESOLVE_STEPS, resolveChain, type ChainHops } from '../../../main/names/resolve-chain.js';

const CID_A = CID.parse('bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am');
const KEY = 'k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8';

const record = (name: string, value: string, over: Partial<ValidRecord> = {}): ValidRecord => ({
  name,
  value,
  target: parseContentPath(value)!,
  sequence: 7n,
  validUntilMs: 100_000,
  ttlSeconds: 30,
  bytes: new Uint8Array([7]),
  ...over,
});

/** Hops from plain maps: key names to cached answers, domains to DNSLink values. */
function hops(keys: Record<string, KeyHit>, domains: Record<string, string>): ChainHops {
  return {
    key: async (name) => keys[name] ?? Promise.reject(new Error(`no key ${name}`)),
    dnsLink: async (domain) => domains[domain] ?? Promise.reject(new Error(`no domain ${domain}`)),
  };
}

describe('a chain of names to content', () => {
  it('a DNSLink domain through a key held elsewhere: the paths join, the first value shows, not held', async () => {
    const keys = { [KEY]: foreignHit(record(KEY, `/ipfs/${CID_A.toString()}/a`), 0) };
    const resolution = await resolveChain(hops(keys, { 'site.test': `/ipns/${KEY}/b` }), 'site.test', 'dnslink');
    expect(resolution).toMatchObject({ name: 'site.test', kind: 'dnslink', value: `/ipns/${KEY}/b`, path: '/a/b', ttlSeconds: 30, held: false });
    expect(resolution.cid.equals(CID_A)).toBe(true);
    // The asked name is a domain: no record of it to hand out.
    expect(resolution.record).toBeUndefined();
    expect(resolution.sequence).toBeUndefined();
  });

  it('a key held here through a domain: its own record and sequence, the smallest TTL, held', async () => {
    const keys = { [KEY]: ownedHit(record(KEY, '/ipns/site.test', { ttlSeconds: 300 })) };
    const resolution = await resolveChain(hops(keys, { 'site.test': `/ipfs/${CID_A.toString()}` }), KEY, 'ipns');
    expect(resolution).toMatchObject({ kind: 'ipns', value: '/ipns/site.test', path: '', ttlSeconds: 300, sequence: 7n, held: true });
    expect(resolution.record).toEqual(new Uint8Array([7]));
  });

  it('a loop, a chain too long, and a value that is no content path are refused', async () => {
    await expect(resolveChain(hops({}, { 'a.test': '/ipns/b.test', 'b.test': '/ipns/a.test' }), 'a.test', 'dnslink')).rejects.toThrow(
      'a.test -> b.test -> a.test is a DNSLink or IPNS loop',
    );
    const long: Record<string, string> = {};
    for (let i = 0; i <= MAX_RESOLVE_STEPS; i++) long[`d${i}.test`] = `/ipns/d${i + 1}.test`;
    await expect(resolveChain(hops({}, long), 'd0.test', 'dnslink')).rejects.toThrow(`more than ${MAX_RESOLVE_STEPS} steps`);
    await expect(resolveChain(hops({}, { 'a.test': 'nonsense' }), 'a.test', 'dnslink')).rejects.toThrow('which is not a content path');
  });
});

describe('the newest record', () => {
  it('the higher sequence wins, then the later end of validity, then the first of equals', () => {
    const a = record(KEY, `/ipfs/${CID_A.toString()}`, { sequence: 2n, validUntilMs: 10 });
    const b = record(KEY, `/ipfs/${CID_A.toString()}`, { sequence: 2n, validUntilMs: 20 });
    const c = record(KEY, `/ipfs/${CID_A.toString()}`, { sequence: 1n, validUntilMs: 99 });
    const d = { ...b };
    expect(newestRecord([a, c, b, d])).toBe(b);
    expect(newestRecord([])).toBeUndefined();
  });
});

describe('waiting for a name to change', () => {
  it('a wake settles the waiters of that name only; an abort settles its own', async () => {
    const waiters = new ChangeWaiters();
    const settled: string[] = [];
    const aborting = new AbortController();
    void waiters.next('a', new AbortController().signal).then(() => settled.push('a'));
    void waiters.next('b', new AbortController().signal).then(() => settled.push('b'));
    void waiters.next('c', aborting.signal).then(() => settled.push('c'));
    waiters.wake('a');
    await expect.poll(() => settled).toEqual(['a']);
    aborting.abort();
    await expect.poll(() => settled).toEqual(['a', 'c']);
    waiters.wakeAll();
    await expect.poll(() => settled).toEqual(['a', 'c', 'b']);
  });
});
