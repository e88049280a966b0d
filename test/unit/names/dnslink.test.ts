import { generateKeyPair } from '@libp2p/crypto/keys';
import { createIPNSRecordWithExpiration, marshalIPNSRecord } from 'ipns';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BadInputError, LoopDetectedError, NotFoundError } from '../../../main/base/errors.js';
import { createTxtLookup, DnsLookupError, lookupDnsLink, parseDnsServer } from '../../../main/names/dnslink.js';
import { nameOfKey } from '../../../main/names/keys.js';
import { MAX_RESOLVE_STEPS, resolveName } from '../../../main/names/resolver.js';
import { createName, putRoutingRecord } from './name-requests.js';
import { createNameResolver } from '../../../main/names/resolver.js';
import { sqliteStore } from '../../../main/store/db/sqlite-store.js';
import {
  addAccount,
  fixtureDnsLinks,
  namesContext,
  parseDnsLinkYaml,
  startDnsServer,
  tempDb,
  type TestDb,
  type TestDnsServer,
  CLOCK_START_MS,
} from './helpers.js';
import { fixture } from '../../helpers/fixtures.js';
import { manualClock } from '../../helpers/manual-clock.js';

type IpnsKey = Parameters<typeof createIPNSRecordWithExpiration>[0];

let dns: TestDnsServer;
let t: TestDb;

beforeAll(async () => {
  dns = await startDnsServer();
  for (const { domain, path } of fixtureDnsLinks()) dns.txt.set(`_dnslink.${domain}`, [[`dnslink=${path}`]]);
});
afterAll(() => dns.close());
beforeEach(() => {
  t = tempDb();
  dns.queries.length = 0;
});
afterEach(() => t.cleanup());

const HELLO = 'bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am';

describe('fixture dnslink.yml files', () => {
  it('hold the entries the MANIFEST names', () => {
    const links = fixtureDnsLinks();
    const byDomain = new Map(links.map((link) => [link.domain, link.path]));
    expect(byDomain.get('dnslink-test.example.org')).toBe(`/ipfs/${HELLO}`);
    expect(byDomain.get('dnslink-dir-listing.example.org')).toBe('/ipfs/bafybeig6ka5mlwkl4subqhaiatalkcleo4jgnr3hqwvpmsqfca27cijp3i');
    expect(byDomain.get('dnslink-over-ipns.example.org')).toBe('/ipns/12D3KooWLQzUv2FHWGVPXTXSZpdHs7oHbXub2G5WC8Tx4NQhyd2d');
    expect(links.length).toBe(7);
    expect(parseDnsLinkYaml('dnslinks:\n  a:\n    domain: x.example\n    # comment\n    path: /ipfs/y # trailing\n')).toEqual([
      { domain: 'x.example', path: '/ipfs/y' },
    ]);
  });
});

describe('DNSLink resolution over a real DNS server', () => {
  it('resolves every fixture /ipfs/ DNSLink through --dns-resolver HOST:PORT', async () => {
    const ctx = namesContext(t.db, { txt: createTxtLookup(dns.address) });
    const ipfsLinks = fixtureDnsLinks().filter((link) => link.path.startsWith('/ipfs/'));
    expect(ipfsLinks.length).toBe(5);
    for (const { domain, path } of ipfsLinks) {
      const resolution = await resolveName(ctx, domain);
      expect(`/ipfs/${resolution.cid.toString()}`, domain).toBe(path);
      expect(resolution.kind).toBe('dnslink');
      expect(resolution.path).toBe('');
      expect(resolution.record).toBeUndefined();
      expect(resolution.ttlSeconds).toBeUndefined();
    }
    expect(dns.queries).toContain('_dnslink.dnslink-test.example.org');
  });

  it('follows DNSLink to IPNS names whose records are in offline routing (dnslink_ipns fixture)', async () => {
    const ctx = namesContext(t.db, { txt: createTxtLookup(dns.address) });
    const check = await putRoutingRecord(
      ctx,
      '12D3KooWLQzUv2FHWGVPXTXSZpdHs7oHbXub2G5WC8Tx4NQhyd2d',
      fixture('gateway-conformance/fixtures/subdomain_gateway/12D3KooWLQzUv2FHWGVPXTXSZpdHs7oHbXub2G5WC8Tx4NQhyd2d.ipns-record'),
    );
    expect(check.ok).toBe(true);
    for (const domain of ['dnslink-over-ipns.example.org', 'dnslink-over-ipns-cidv1.example.org']) {
      const resolution = await resolveName(ctx, domain);
      expect(resolution.cid.toString(), domain).toBe(HELLO);
      expect(resolution.kind).toBe('dnslink');
      expect(resolution.ttlSeconds).toBe(3155760000);
    }
  });

  it('falls back to TXT on the name itself, keeps paths, picks the first of several, ignores junk', async () => {
    const ctx = namesContext(t.db, { txt: createTxtLookup(dns.address) });
    dns.txt.set('bare.example.net', [['v=spf1 -all'], ['dnslink=/ipfs/', `${HELLO}/sub/dir`]]);
    const bare = await resolveName(ctx, 'Bare.Example.NET');
    expect(bare.name).toBe('bare.example.net');
    expect(bare.cid.toString()).toBe(HELLO);
    expect(bare.path).toBe('/sub/dir');
    expect(dns.queries.slice(0, 2)).toEqual(['_dnslink.bare.example.net', 'bare.example.net']);

    dns.txt.set('_dnslink.several.example.net', [[`dnslink=/ipfs/${HELLO}/b`], ['dnslink=not a path'], [`dnslink=/ipfs/${HELLO}/a`]]);
    expect((await resolveName(ctx, 'several.example.net')).path).toBe('/a');

    // Recursion through /ipns/<domain>/<path>: the inner path comes first.
    dns.txt.set('_dnslink.outer.example.net', [['dnslink=/ipns/bare.example.net/more']]);
    const outer = await resolveName(ctx, 'outer.example.net');
    expect(outer.path).toBe('/sub/dir/more');
    expect(outer.value).toBe('/ipns/bare.example.net/more');
  });

  it('answers 404 for a domain without DNSLink, 400 for text that is no name', async () => {
    const ctx = namesContext(t.db, { txt: createTxtLookup(dns.address) });
    await expect(resolveName(ctx, 'unknown.example.org')).rejects.toThrow(NotFoundError);
    dns.txt.set('_dnslink.junk.example.org', [['dnslink=/ftp/nope']]);
    await expect(resolveName(ctx, 'junk.example.org')).rejects.toThrow(NotFoundError);
    dns.txt.set('_dnslink.dangling.example.org', [['dnslink=/ipns/unknown.example.org']]);
    await expect(resolveName(ctx, 'dangling.example.org')).rejects.toThrow(NotFoundError);
    await expect(resolveName(ctx, 'localhost')).rejects.toThrow(BadInputError);
    await expect(resolveName(ctx, 'bad_domain..org')).rejects.toThrow(BadInputError);
  });

  it('stops a DNSLink loop at the first name seen twice (the error string loop); a 32-step chain still resolves, 33 steps do not', async () => {
    const ctx = namesContext(t.db, { txt: createTxtLookup(dns.address) });
    dns.txt.set('_dnslink.loop-a.example.org', [['dnslink=/ipns/loop-b.example.org']]);
    dns.txt.set('_dnslink.loop-b.example.org', [['dnslink=/ipns/loop-a.example.org']]);
    const error = await resolveName(ctx, 'loop-a.example.org').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoopDetectedError);
    expect((error as LoopDetectedError).code).toBe('loop');
    expect((error as LoopDetectedError).message).toBe(
      'could not resolve loop-a.example.org: loop-a.example.org -> loop-b.example.org -> loop-a.example.org is a DNSLink or IPNS loop',
    );
    expect(dns.queries).toEqual(['_dnslink.loop-a.example.org', '_dnslink.loop-b.example.org']);

    for (let i = 1; i <= 33; i++) {
      const next = i === 33 ? `/ipfs/${HELLO}` : `/ipns/chain${i + 1}.example.org`;
      dns.txt.set(`_dnslink.chain${i}.example.org`, [[`dnslink=${next}`]]);
    }
    expect((await resolveName(ctx, 'chain2.example.org')).cid.toString()).toBe(HELLO); // 32 steps
    await expect(resolveName(ctx, 'chain1.example.org')).rejects.toThrow(`more than ${MAX_RESOLVE_STEPS} steps`); // 33 steps
  });

  it('stops an IPNS record loop too, and mixes IPNS and DNSLink hops', async () => {
    const ctx = namesContext(t.db, { txt: createTxtLookup(dns.address) });
    const account = addAccount(t.db);
    const { name } = await createName(ctx, account, HELLO);
    dns.txt.set('_dnslink.to-key.example.org', [[`dnslink=/ipns/${name}/x`]]);
    const mixed = await resolveName(ctx, 'to-key.example.org');
    expect(mixed.cid.toString()).toBe(HELLO);
    expect(mixed.path).toBe('/x');
    expect(mixed.ttlSeconds).toBe(300);

    // A third-party record whose value is its own name: a loop of IPNS hops.
    const key = await generateKeyPair('Ed25519');
    const self = nameOfKey(key);
    const expiry = new Date(Date.UTC(2027, 0, 1)).toISOString();
    const record = await createIPNSRecordWithExpiration(key as unknown as IpnsKey, `/ipns/${self}`, 0, expiry);
    expect((await putRoutingRecord(ctx, self, marshalIPNSRecord(record))).ok).toBe(true);
    await expect(resolveName(ctx, self)).rejects.toThrow(new LoopDetectedError(`could not resolve ${self}: ${self} -> ${self} is a DNSLink or IPNS loop`));
  });

  it('caches DNSLink answers for dnsCacheSeconds on the injected clock', async () => {
    const clock = manualClock(CLOCK_START_MS);
    const resolver = createNameResolver({ names: sqliteStore(t.db).names, clock, txt: createTxtLookup(dns.address), dnsCacheSeconds: 60 });
    dns.txt.set('_dnslink.cached.example.org', [[`dnslink=/ipfs/${HELLO}`]]);
    await resolver.resolve('cached.example.org');
    await resolver.resolve('cached.example.org');
    expect(dns.queries.filter((q) => q.includes('cached')).length).toBe(1);
    clock.advance(61_000);
    await resolver.resolve('cached.example.org');
    expect(dns.queries.filter((q) => q.includes('cached')).length).toBe(2);
  });
});

describe('DNS plumbing', () => {
  it('parses --dns-resolver values', () => {
    expect(parseDnsServer('127.0.0.1:5353')).toBe('127.0.0.1:5353');
    expect(parseDnsServer('localhost:53')).toBe('127.0.0.1:53');
    expect(parseDnsServer('[::1]:5353')).toBe('[::1]:5353');
    for (const bad of ['127.0.0.1', 'dns.example:53', '127.0.0.1:0', '127.0.0.1:70000', ':53', '']) {
      expect(() => parseDnsServer(bad), bad).toThrow(BadInputError);
    }
  });

  it('reports an unreachable DNS server as a lookup failure, not as "no record"', async () => {
    // A bound-then-closed port: nothing answers, so the resolver times out.
    const silent = await startDnsServer();
    const address = silent.address;
    await silent.close();
    const lookup = createTxtLookup(address, { timeoutMs: 200, tries: 1 });
    await expect(lookupDnsLink(lookup, 'example.org')).rejects.toThrow(DnsLookupError);
  });
});
