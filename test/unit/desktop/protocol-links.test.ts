import { describe, expect, it } from 'vitest';
import { createLinkRouter, type LinkRouterInit } from '../../../main/desktop/link-routing.js';
import { isProtocolLink, linkTarget, MAX_LINK_LENGTH, parseProtocolLink, ProtocolLinkError } from '../../../main/desktop/protocol-links.js';
import type { GatewayFacts, LinkTarget } from '../../../main/desktop/protocol-links.js';

const CID_V1 = 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi';
const CID_V0 = 'QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn';
const NAME = 'k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8';
const PEER_ID = '12D3KooWD3eckifWpRn9wQpMG9R9hX3sD158z7EqHWmweQAJU5SA';
const ORIGIN = 'http://127.0.0.1:5080';
const publicGateway: GatewayFacts = { origin: ORIGIN, public: true };
const privateGateway: GatewayFacts = { origin: ORIGIN, public: false };

describe('parseProtocolLink', () => {
  it('reads ipfs:// with a CID (v1 or v0) and a path', () => {
    expect(parseProtocolLink(`ipfs://${CID_V1}`)).toEqual({ namespace: 'ipfs', root: CID_V1, path: '' });
    expect(parseProtocolLink(`ipfs://${CID_V0}/`)).toEqual({ namespace: 'ipfs', root: CID_V0, path: '/' });
    expect(parseProtocolLink(`IPFS://${CID_V1}/photos/a%20b.jpg`)).toEqual({ namespace: 'ipfs', root: CID_V1, path: '/photos/a%20b.jpg' });
    expect(parseProtocolLink(`ipfs://${CID_V1}/docs/`)).toMatchObject({ path: '/docs/' });
  });

  it('encodes each path segment again and drops the query and fragment', () => {
    expect(parseProtocolLink(`ipfs://${CID_V1}/a b/ü?format=car&download=true#top`)).toEqual({ namespace: 'ipfs', root: CID_V1, path: '/a%20b/%C3%BC' });
    expect(parseProtocolLink(`ipfs://${CID_V1}/50%25`)).toMatchObject({ path: '/50%25' });
  });

  it('reads ipns:// with a key name (made canonical) or a DNSLink domain (lower-cased)', () => {
    expect(parseProtocolLink(`ipns://${NAME}/index.html`)).toEqual({ namespace: 'ipns', root: NAME, path: '/index.html' });
    expect(parseProtocolLink(`ipns://${PEER_ID}`).root).toMatch(/^k51/);
    expect(parseProtocolLink('ipns://Docs.IPFS.tech/concepts/')).toEqual({ namespace: 'ipns', root: 'docs.ipfs.tech', path: '/concepts/' });
  });

  it.each([
    ['another scheme', 'https://example.org/ipfs/x', /only ipfs:\/\/ and ipns:\/\//],
    ['a file: link', 'file:///etc/passwd', /only ipfs:\/\/ and ipns:\/\//],
    ['the path form without //', `ipfs:/ipfs/${CID_V1}`, /only ipfs:\/\/ and ipns:\/\//],
    ['no root', 'ipfs://', /names no CID/],
    ['no root, with a path', 'ipfs:///etc/passwd', /names no CID/],
    ['an invalid CID', 'ipfs://notacid/x', /the link's CID is not valid/],
    ['a lower-cased CIDv0', `ipfs://${CID_V0.toLowerCase()}`, /the link's CID is not valid/],
    ['a name that is no key and no domain', 'ipns://localhost', /IPNS name is neither a key nor a domain/],
    ['.. in the path', `ipfs://${CID_V1}/a/../../etc/passwd`, /climbs out/],
    ['an encoded ..', `ipfs://${CID_V1}/%2e%2e/x`, /climbs out/],
    ['. in the path', `ipfs://${CID_V1}/./x`, /climbs out/],
    ['an encoded slash', `ipfs://${CID_V1}/a%2Fb`, /slash, backslash or control/],
    ['an encoded backslash', `ipfs://${CID_V1}/a%5C..%5Cb`, /slash, backslash or control/],
    ['a NUL', `ipfs://${CID_V1}/a%00b`, /slash, backslash or control/],
    ['an empty segment', `ipfs://${CID_V1}/a//b`, /empty path segment/],
    ['bad percent-encoding', `ipfs://${CID_V1}/%E0%A4%A`, /badly encoded/],
    ['huge input', `ipfs://${CID_V1}/${'a'.repeat(MAX_LINK_LENGTH)}`, /longer than 4096/],
  ])('refuses %s', (_what, link, reason) => {
    expect(() => parseProtocolLink(link)).toThrow(ProtocolLinkError);
    expect(() => parseProtocolLink(link)).toThrow(reason);
  });

  it("never quotes the link in its reason: the words are Pinfold's, not the link's author's", () => {
    const crafted = [
      'ipfs://Your-Pinfold-licence-expired.Call-555-0100-now',
      'ipns://Your_Pinfold_licence_expired_call_555-0100',
      'ipfs://Call%20555-0100%20to%20keep%20your%20files',
      `ipfs://${CID_V1}/Call-555-0100/../x`,
    ];
    for (const link of crafted) {
      let reason = '';
      try {
        parseProtocolLink(link);
      } catch (error) {
        reason = (error as Error).message;
      }
      expect(reason, link).not.toBe('');
      expect(reason, link).not.toMatch(/555|licence|Call/i);
    }
  });

  it('refuses what is not text', () => {
    expect(() => parseProtocolLink(undefined)).toThrow(/not text/);
    expect(() => parseProtocolLink({ toString: () => `ipfs://${CID_V1}` })).toThrow(/not text/);
  });

  it('cuts a long bad root short in its message', () => {
    const error = (() => {
      try {
        parseProtocolLink(`ipfs://${'z'.repeat(1000)}`);
      } catch (caught) {
        return caught as Error;
      }
      throw new Error('accepted');
    })();
    expect(error.message.length).toBeLessThan(120);
  });

  it('tells our links from other arguments', () => {
    expect(isProtocolLink(`ipfs://${CID_V1}`)).toBe(true);
    expect(isProtocolLink('IPNS://docs.ipfs.tech')).toBe(true);
    expect(isProtocolLink('--data=/tmp/x')).toBe(false);
    expect(isProtocolLink('/opt/Pinfold/pinfold')).toBe(false);
  });
});

describe('linkTarget', () => {
  it('the public gateway: the local gateway page in the browser', () => {
    expect(linkTarget(parseProtocolLink(`ipfs://${CID_V1}/a%20b.jpg`), publicGateway)).toEqual({ open: 'browser', url: `${ORIGIN}/ipfs/${CID_V1}/a%20b.jpg` });
    expect(linkTarget(parseProtocolLink('ipns://docs.ipfs.tech/'), publicGateway)).toEqual({ open: 'browser', url: `${ORIGIN}/ipns/docs.ipfs.tech/` });
  });

  it('a gateway that needs a key: the view page of the content path, for a signed-in browser tab', () => {
    expect(linkTarget(parseProtocolLink(`ipfs://${CID_V1}/a%20b.jpg`), privateGateway)).toEqual({
      open: 'signed-in',
      path: `/view?path=${encodeURIComponent(`/ipfs/${CID_V1}/a%20b.jpg`)}`,
    });
    expect(linkTarget(parseProtocolLink(`ipns://${NAME}`), privateGateway)).toEqual({ open: 'signed-in', path: `/view?path=%2Fipns%2F${NAME}` });
  });
});

describe('createLinkRouter', () => {
  function router(gateway: GatewayFacts | null = publicGateway) {
    const opened: LinkTarget[] = [];
    const refused: Array<[string, string]> = [];
    let facts = gateway;
    const init: LinkRouterInit = { gateway: () => facts, open: (target) => opened.push(target), refused: (link, reason) => refused.push([link, reason]) };
    return { router: createLinkRouter(init), opened, refused, setGateway: (next: GatewayFacts | null) => (facts = next) };
  }

  it('opens a link at once while the service runs (open-url, macOS)', () => {
    const { router: links, opened } = router();
    links.handle(`ipfs://${CID_V1}`);
    expect(opened).toEqual([{ open: 'browser', url: `${ORIGIN}/ipfs/${CID_V1}` }]);
  });

  it("takes only the links out of a second instance's command line (Windows, Linux)", () => {
    const { router: links, opened } = router();
    links.handleArgv(['C:\\Pinfold\\Pinfold.exe', '--allow-file-access-from-files', '--data=C:\\d', `ipns://${NAME}/`]);
    expect(opened).toEqual([{ open: 'browser', url: `${ORIGIN}/ipns/${NAME}/` }]);
  });

  it('holds links that come before the service is up, then opens them in order', () => {
    const { router: links, opened, setGateway } = router(null);
    links.handle(`ipfs://${CID_V1}`);
    links.handleArgv(['/opt/Pinfold/pinfold', `ipfs://${CID_V0}`]);
    links.flush();
    expect(opened).toEqual([]);
    setGateway(privateGateway);
    links.flush();
    expect(opened).toEqual([
      { open: 'signed-in', path: `/view?path=%2Fipfs%2F${CID_V1}` },
      { open: 'signed-in', path: `/view?path=%2Fipfs%2F${CID_V0}` },
    ]);
    links.flush();
    expect(opened).toHaveLength(2);
  });

  it('keeps at most 16 waiting links', () => {
    const { router: links, opened, setGateway } = router(null);
    for (let i = 0; i < 50; i += 1) links.handle(`ipfs://${CID_V1}`);
    setGateway(publicGateway);
    links.flush();
    expect(opened).toHaveLength(16);
  });

  it('refuses a bad link with its reason, shortened, and opens nothing', () => {
    const { router: links, opened, refused } = router();
    links.handle('ipfs://notacid');
    links.handle(`ipfs://${CID_V1}/${'..'}/x`);
    links.handle(`ipfs://${'q'.repeat(5000)}`);
    expect(opened).toEqual([]);
    expect(refused.map(([, reason]) => reason)).toEqual([
      "the link's CID is not valid",
      'the link climbs out of its root (. or .. in the path)',
      'the link is longer than 4096 characters',
    ]);
    expect(refused[2]?.[0].length).toBeLessThanOrEqual(200);
  });
});
