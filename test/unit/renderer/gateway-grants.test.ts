/**
 * Issue 22, item 3: which navigations the window lets its gateway worker sign. Only its own: an address it
 * announced (once, for a short while), the next leg of a signed navigation the gateway redirected (once),
 * or a navigation started by a document signed for it; never what another page asks for.
 */
import { describe, expect, it } from 'vitest';
import { createGatewayGrants, EXPECTED_FOR_MS, gatewayNavigationUrl, REDIRECT_FOR_MS, SIGNED_KEPT } from '../../../renderer/lib/gateway-grants.js';

const ORIGIN = 'http://127.0.0.1:5080';
const FILE = `${ORIGIN}/ipfs/bafkqaaa?filename=notes.txt`;
const FOLDER = `${ORIGIN}/ipfs/bafybeiczsscdsbs7ffqz55asqdf3smv6klcw3gofszvwlyarci47bgf354`;

/** Grants on a clock the test moves by hand. */
function grantsAt(start = 1_000_000) {
  const clock = { now: start };
  return { grants: createGatewayGrants(() => clock.now), clock };
}

/** A navigation nobody started from a document of this origin: a link on another site, an address typed in. */
const fromElsewhere = (url: string, resultingClientId = 'tab-new', referrer = '') => ({ url, referrer, clientId: '', resultingClientId });

describe('gateway grants', () => {
  it('signs nothing the window did not announce', () => {
    const { grants } = grantsAt();
    expect(grants.allow(fromElsewhere(FILE))).toBe(false);
    expect(grants.allow({ url: FILE, referrer: `${ORIGIN}/pins`, clientId: 'some-page', resultingClientId: 'tab-1' })).toBe(false);
  });

  it('signs an announced address once, and only within EXPECTED_FOR_MS', () => {
    const { grants, clock } = grantsAt();
    grants.expect(FILE);
    expect(grants.allow(fromElsewhere(FILE, 'tab-1'))).toBe(true);
    // Single use: the same address asked again (another site's link to it) goes without a key.
    expect(grants.allow(fromElsewhere(FILE, 'tab-2'))).toBe(false);

    grants.expect(FILE);
    clock.now += EXPECTED_FOR_MS;
    expect(grants.allow(fromElsewhere(FILE))).toBe(false);
    grants.expect(FILE);
    clock.now += EXPECTED_FOR_MS - 1;
    expect(grants.allow(fromElsewhere(FILE))).toBe(true);
  });

  it('compares whole addresses without their fragment: another query or path is another address', () => {
    const { grants } = grantsAt();
    grants.expect(`${FILE}#page=2`);
    expect(grants.allow(fromElsewhere(`${ORIGIN}/ipfs/bafkqaaa?filename=other.txt`))).toBe(false);
    expect(grants.allow(fromElsewhere(`${ORIGIN}/ipfs/bafkqaaa`))).toBe(false);
    expect(grants.allow(fromElsewhere(`${FILE}#top`))).toBe(true);
    grants.expect('not a URL');
    expect(grants.allow(fromElsewhere('not a URL'))).toBe(false);
  });

  it("lets a signed navigation's redirect follow once, right after it was reported, and no other navigation", () => {
    const { grants, clock } = grantsAt();
    grants.expect(FOLDER);
    expect(grants.allow(fromElsewhere(FOLDER, 'tab-1'))).toBe(true);
    grants.redirected('tab-1');
    // Another navigation to the address the folder redirects to is not its next leg.
    expect(grants.allow(fromElsewhere(`${FOLDER}/?ts=1`, 'tab-2'))).toBe(false);
    expect(grants.allow(fromElsewhere(`${FOLDER}/?ts=1`, 'tab-1'))).toBe(true);
    expect(grants.allow(fromElsewhere(`${FOLDER}/?ts=1`, 'tab-1'))).toBe(false);

    // Reported too late, or for a navigation that was never signed: nothing follows.
    grants.redirected('tab-1');
    clock.now += REDIRECT_FOR_MS;
    expect(grants.allow(fromElsewhere(`${FOLDER}/?ts=2`, 'tab-1'))).toBe(false);
    grants.redirected('tab-unsigned');
    expect(grants.allow(fromElsewhere(`${FOLDER}/?ts=3`, 'tab-unsigned'))).toBe(false);
  });

  it('signs what a signed document starts (a listing and its links), and what those start in turn', () => {
    const { grants } = grantsAt();
    grants.expect(FOLDER);
    grants.allow(fromElsewhere(FOLDER, 'listing'));
    expect(grants.allow({ url: `${FOLDER}/docs/`, referrer: '', clientId: 'listing', resultingClientId: 'docs' })).toBe(true);
    expect(grants.allow({ url: `${FOLDER}/docs/a.txt`, referrer: '', clientId: 'docs', resultingClientId: 'a' })).toBe(true);
    // The listing can be followed more than once (back, then another link).
    expect(grants.allow({ url: `${FOLDER}/b.txt`, referrer: '', clientId: 'listing', resultingClientId: 'b' })).toBe(true);
    // A document nobody signed, or one of another origin (no id), starts nothing signed.
    expect(grants.allow({ url: `${FOLDER}/c.txt`, referrer: '', clientId: 'stranger', resultingClientId: 'c' })).toBe(false);
    expect(grants.allow({ url: `${FOLDER}/c.txt`, referrer: '', clientId: '', resultingClientId: '' })).toBe(false);
  });

  it('forgets the oldest signed documents beyond SIGNED_KEPT', () => {
    const { grants } = grantsAt();
    for (let i = 0; i <= SIGNED_KEPT; i++) {
      grants.expect(`${FOLDER}/${i}`);
      grants.allow(fromElsewhere(`${FOLDER}/${i}`, `doc-${i}`));
    }
    expect(grants.allow({ url: `${FOLDER}/x`, referrer: '', clientId: 'doc-0', resultingClientId: 'x' })).toBe(false);
    expect(grants.allow(fromElsewhere(`${FOLDER}/0`, 'again', `${ORIGIN}/pins`))).toBe(false);
    expect(grants.allow({ url: `${FOLDER}/y`, referrer: '', clientId: 'doc-1', resultingClientId: 'y' })).toBe(true);
  });

  it('signs Back, Forward and Reload of a signed address, which come with a referrer of this origin; not the same address from elsewhere', () => {
    const { grants } = grantsAt();
    grants.expect(FILE);
    expect(grants.allow(fromElsewhere(FILE, 'tab-1', `${ORIGIN}/pins`))).toBe(true);
    // Reload, or Back to it: the browser sends the referrer it was opened with, any number of times.
    expect(grants.allow(fromElsewhere(FILE, 'tab-2', `${ORIGIN}/pins`))).toBe(true);
    expect(grants.allow(fromElsewhere(FILE, 'tab-3', `${ORIGIN}/ipfs/bafkqaaa/`))).toBe(true);
    // Another site's link to it: its own referrer, or none.
    expect(grants.allow(fromElsewhere(FILE, 'tab-4', 'http://127.0.0.1:5081/'))).toBe(false);
    expect(grants.allow(fromElsewhere(FILE, 'tab-5', ''))).toBe(false);
    expect(grants.allow(fromElsewhere(FILE, 'tab-6', 'not a URL'))).toBe(false);
    // An address never signed, with a referrer of this origin: not the window's either.
    expect(grants.allow(fromElsewhere(`${FILE}2`, 'tab-7', `${ORIGIN}/pins`))).toBe(false);
  });
});

describe('gatewayNavigationUrl', () => {
  it("answers this origin's /ipfs/ and /ipns/ addresses, absolute and without a fragment; nothing else", () => {
    const base = `${ORIGIN}/pins?name=x`;
    expect(gatewayNavigationUrl('/ipfs/bafkqaaa?filename=a b.txt#x', base)).toBe(`${ORIGIN}/ipfs/bafkqaaa?filename=a%20b.txt`);
    expect(gatewayNavigationUrl(`${ORIGIN}/ipns/example.org/`, base)).toBe(`${ORIGIN}/ipns/example.org/`);
    for (const href of ['/pins', '/ipfsx/bafkqaaa', '/ipfs', 'http://localhost:5080/ipfs/bafkqaaa', 'https://evil.example/ipfs/bafkqaaa', 'http://[bad']) {
      expect(gatewayNavigationUrl(href, base), href).toBeNull();
    }
  });
});
