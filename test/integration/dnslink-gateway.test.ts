import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/account-api.js';
import { withServerStore } from '../helpers/suite-metadata.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { addDnsLink, createdName, fixtureDnsLinks, publishName, startDnsServer, type TestDnsServer } from './names-helpers.js';
import { fixture } from '../helpers/fixtures.js';
import { asCall, carImport, dagAdd, EMPTY_DIR_V1, gatewayGet, uploadCid } from './uploads-helpers.js';

/** The fixture CARs that hold what the fixtures' DNSLink entries point at (MANIFEST.md). */
const CARS = [
  'gateway-conformance/fixtures/dir_listing/fixtures.car',
  'gateway-conformance/fixtures/redirects_file/redirects.car',
  'gateway-conformance/fixtures/redirects_file/redirects-spa.car',
  'gateway-conformance/fixtures/subdomain_gateway/fixtures.car',
];
/** Signed record of the Ed25519 key the dnslink_ipns entries point at (offline routing, as `ipfs routing put`). */
const ROUTED_RECORD = 'gateway-conformance/fixtures/subdomain_gateway/12D3KooWLQzUv2FHWGVPXTXSZpdHs7oHbXub2G5WC8Tx4NQhyd2d.ipns-record';
const ROUTED_NAME = 'k51qzi5uqu5dk3v4rmjber23h16xnr23bsggmqqil9z2gduiis5se8dht36dam';
const ONE_YEAR = 29_030_400;

describe('DNSLink through a real DNS server on loopback (contract section 7)', () => {
  let dns: TestDnsServer;
  let server: TestServer;
  const links = fixtureDnsLinks();

  beforeAll(async () => {
    dns = await startDnsServer();
    for (const link of links) addDnsLink(dns, link.domain, link.path);
    server = await startTestServer({ dnsResolver: dns.address });
    for (const car of CARS) {
      const imported = await carImport(server, server.owner, new Uint8Array(fixture(car)));
      expect(imported.status, `${car}: ${imported.text}`).toBe(200);
    }
    // No API stores a third party's record (the hosted service has none): write it as offline routing does.
    await withServerStore(server, (store) => store.names.putRoutingRecord(ROUTED_NAME, fixture(ROUTED_RECORD), Math.floor(Date.now() / 1000)), 'write');
  });
  afterAll(async () => {
    await server?.stop();
    await dns?.close();
  });

  it('the fixtures give DNSLink entries for every case used here', () => {
    const domains = links.map((link) => link.domain);
    for (const domain of [
      'dnslink-dir-listing.example.org',
      'dnslink-test.example.org',
      'dnslink-redirects-examples.example.org',
      'dnslink-enabled-with-spa.example.org',
      'dnslink-over-ipns.example.org',
      'dnslink-over-ipns-cidv1.example.org',
      'en.wikipedia-on-ipfs.example.org',
    ]) {
      expect(domains).toContain(domain);
    }
  });

  it.each([
    ['dnslink-test.example.org', '', 'hello\n'],
    ['dnslink-dir-listing.example.org', '/%C4%85/%C4%99/file-%C5%BA%C5%82.txt', 'I am a txt file on path with utf8\n'],
    ['dnslink-dir-listing.example.org', '/api/file.txt', 'I am a txt file in confusing /api dir\n'],
    ['dnslink-redirects-examples.example.org', '/one.html', 'my one\n'],
    ['dnslink-redirects-examples.example.org', '/articles/2022/06/15/hello-world/index.html', 'hello world\n'],
    ['dnslink-enabled-with-spa.example.org', '/index.html', 'hello world\n'],
  ])('GET /ipns/%s%s serves the imported fixture content, with no Cache-Control (DNS TTLs are not read)', async (domain, path, body) => {
    const response = await gatewayGet(server, server.owner, `/ipns/${domain}${path}`);
    expect(response.status, response.bytes.toString('utf8')).toBe(200);
    expect(response.bytes.toString('utf8')).toBe(body);
    expect(response.headers.get('cache-control')).toBeNull();
    expect(response.headers.get('x-ipfs-path')).toBe(`/ipns/${domain}${path}`);
    expect(dns.queries).toContain(`_dnslink.${domain}`);

    const head = await gatewayGet(server, server.owner, `/ipns/${domain}${path}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.bytes.byteLength).toBe(0);
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
  });

  it('a DNSLink directory root gets its listing', async () => {
    const response = await gatewayGet(server, server.owner, '/ipns/dnslink-dir-listing.example.org/');
    expect(response.status).toBe(200);
    expect(response.bytes.toString('utf8')).toContain('Index of');
    expect(response.headers.get('cache-control') ?? '').not.toMatch(/immutable/);
  });

  it.each(['dnslink-over-ipns.example.org', 'dnslink-over-ipns-cidv1.example.org'])(
    '%s resolves through its /ipns/ key name (both name forms) to the content, Cache-Control from the record TTL',
    async (domain) => {
      const response = await gatewayGet(server, server.owner, `/ipns/${domain}`);
      expect(response.status, response.bytes.toString('utf8')).toBe(200);
      expect(response.bytes.toString('utf8')).toBe('hello\n');
      // The record's TTL is 100 years; the header is capped at one year.
      expect(response.headers.get('cache-control')).toBe(`public, max-age=${ONE_YEAR}`);
    },
  );

  it('DNSLink to our own name, and DNSLink to DNSLink, resolve recursively with the paths joined; a publish shows at once', async () => {
    const added = await dagAdd(server, server.owner, EMPTY_DIR_V1, 'site/page.txt', new TextEncoder().encode('page one\n'));
    expect(added.status, added.text).toBe(201);
    const name = await createdName(server, server.owner, added.headers.get('ipfs-hash') as string);
    addDnsLink(dns, 'own-name.example.net', `/ipns/${name}/site`);
    addDnsLink(dns, 'outer.example.net', '/ipns/own-name.example.net');
    addDnsLink(dns, 'outermost.example.net', '/ipns/outer.example.net/');

    for (const domain of ['own-name.example.net', 'outer.example.net', 'outermost.example.net']) {
      const response = await gatewayGet(server, server.owner, `/ipns/${domain}/page.txt`);
      expect(response.status, `${domain}: ${response.bytes.toString('utf8')}`).toBe(200);
      expect(response.bytes.toString('utf8')).toBe('page one\n');
      // The chain passes through a record with TTL 5 min.
      expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    }

    const next = await dagAdd(server, server.owner, EMPTY_DIR_V1, 'site/page.txt', new TextEncoder().encode('page two\n'));
    expect((await publishName(server, server.owner, name, next.headers.get('ipfs-hash') as string)).status).toBe(200);
    const after = await gatewayGet(server, server.owner, '/ipns/outermost.example.net/page.txt');
    expect(after.bytes.toString('utf8')).toBe('page two\n');
  });

  it('a TXT record on the domain itself is used when _dnslink.<domain> has none', async () => {
    const cid = await uploadCid(server, server.owner, new TextEncoder().encode('apex record\n'));
    addDnsLink(dns, 'apex.example.net', `/ipfs/${cid}`, { atApex: true });
    dns.txt.set('apex.example.net', [['v=spf1 -all'], ...(dns.txt.get('apex.example.net') ?? [])]);
    const response = await gatewayGet(server, server.owner, '/ipns/apex.example.net');
    expect(response.status).toBe(200);
    expect(response.bytes.toString('utf8')).toBe('apex record\n');
    expect(dns.queries.indexOf('_dnslink.apex.example.net')).toBeLessThan(dns.queries.indexOf('apex.example.net'));
  });

  it('a loop is 508 with the envelope, found without asking DNS again: a domain pointing at itself, two domains pointing at each other', async () => {
    addDnsLink(dns, 'self.example.net', '/ipns/self.example.net/x');
    addDnsLink(dns, 'loop-a.example.net', '/ipns/loop-b.example.net');
    addDnsLink(dns, 'loop-b.example.net', '/ipns/LOOP-A.example.net.');
    const cases = [
      ['self.example.net', 'self.example.net -> self.example.net'],
      ['loop-a.example.net', 'loop-a.example.net -> loop-b.example.net -> loop-a.example.net'],
      ['loop-b.example.net', 'loop-b.example.net -> loop-a.example.net -> loop-b.example.net'],
    ];
    for (const [domain, chain] of cases) {
      const asked = dns.queries.length;
      const response = asCall(await gatewayGet(server, server.owner, `/ipns/${domain}/file`));
      expectError(response, 508, new RegExp(`^could not resolve ${domain}: ${chain} is a DNSLink or IPNS loop$`.replace(/\./g, '\\.')));
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      // Each name of the loop is looked up once at most (the resolver caches answers for a minute).
      expect(dns.queries.length - asked).toBeLessThanOrEqual(2);
      expect((await gatewayGet(server, server.owner, `/ipns/${domain}`, { method: 'HEAD' })).status).toBe(508);
    }
  });

  it('a chain of 32 DNSLink names resolves; one of 33 is 508 (contract: at most 32 steps)', async () => {
    const cid = await uploadCid(server, server.owner, new TextEncoder().encode('end of the chain\n'));
    const chain = (prefix: string, length: number): string => {
      for (let i = 1; i < length; i++) addDnsLink(dns, `${prefix}${i}.example.net`, `/ipns/${prefix}${i + 1}.example.net`);
      addDnsLink(dns, `${prefix}${length}.example.net`, `/ipfs/${cid}`);
      return `${prefix}1.example.net`;
    };
    const longest = await gatewayGet(server, server.owner, `/ipns/${chain('hop32-', 32)}`);
    expect(longest.status).toBe(200);
    expect(longest.bytes.toString('utf8')).toBe('end of the chain\n');
    expectError(
      asCall(await gatewayGet(server, server.owner, `/ipns/${chain('hop33-', 33)}`)),
      508,
      /^could not resolve hop33-1\.example\.net: more than 32 steps of DNSLink or IPNS names$/,
    );
  });

  it('an unknown domain is 404; so is one whose TXT records hold no dnslink=', async () => {
    expectError(asCall(await gatewayGet(server, server.owner, '/ipns/unknown-domain.example.net')), 404, /no DNSLink record for unknown-domain\.example\.net/);
    dns.txt.set('_dnslink.no-link.example.net', [['something else']]);
    dns.txt.set('no-link.example.net', [['dnslink=not-a-path']]);
    expectError(asCall(await gatewayGet(server, server.owner, '/ipns/no-link.example.net/x')), 404, /no DNSLink record/);
  });

  it('content a DNSLink names but that is not held here is 404', async () => {
    const response = await gatewayGet(server, server.owner, '/ipns/en.wikipedia-on-ipfs.example.org/wiki/');
    expect(response.status).toBe(404);
  });

  it('a DNS server that fails (SERVFAIL) is a 502, not a 404 and not a 500', async () => {
    dns.failing.add('_dnslink.broken-dns.example.net');
    expectError(asCall(await gatewayGet(server, server.owner, '/ipns/broken-dns.example.net')), 502, /DNS lookup of _dnslink\.broken-dns\.example\.net failed/);
  });

  it('format=ipns-record on a DNSLink name is 400: it has no record', async () => {
    expectError(asCall(await gatewayGet(server, server.owner, '/ipns/dnslink-test.example.org', { query: { format: 'ipns-record' } })), 400, /no record/);
  });
});
