import { describe, expect, it } from 'vitest';
import { BadInputError } from '../../../../main/base/errors.js';
import { followSourceLabel, parseFollowTarget } from '../../../../main/sync/follow/follow-target.js';

const PEER_ID = '12D3KooWLQzUv2FHWGVPXTXSZpdHs7oHbXub2G5WC8Tx4NQhyd2d';
const NAME = 'k51qzi5uqu5dk3v4rmjber23h16xnr23bsggmqqil9z2gduiis5se8dht36dam';
const RSA_PEER_ID = 'QmVujd5Vb7moysJj8itnGufN7MEtPRCNHkKpNuA4onsRa3';
const RSA_NAME = 'k2k4r8m7xvggw5pxxk3abrkwyer625hg01hfyggrai7lk1m63fuihi7w';

function refused(name: string, from: readonly string[] = []): BadInputError {
  try {
    parseFollowTarget(name, from);
  } catch (error) {
    if (error instanceof BadInputError) return error;
    throw error;
  }
  throw new Error(`${JSON.stringify(name)} was accepted`);
}

describe('parseFollowTarget (issue 24)', () => {
  it('takes a key in any spelling, bare or as /ipns/<name>, and answers the canonical name with no extra source', () => {
    for (const text of [NAME, PEER_ID, `/ipns/${NAME}`, `/ipns/${PEER_ID}/`, `  ${NAME}\n`]) {
      expect(parseFollowTarget(text, []), text).toEqual({ name: NAME, sources: [] });
    }
    expect(parseFollowTarget(RSA_PEER_ID, [])).toEqual({ name: RSA_NAME, sources: [] });
  });

  it("takes a gateway URL ending in /ipns/<name>: the gateway (its prefix kept) is the first extra source, then `from`'s, no duplicates", () => {
    expect(parseFollowTarget(`http://127.0.0.1:5080/ipns/${NAME}`, [])).toEqual({ name: NAME, sources: ['http://127.0.0.1:5080'] });
    expect(parseFollowTarget(`https://GW.example/ipfs-gw/ipns/${PEER_ID}/`, ['https://other.example/', 'https://gw.example/ipfs-gw'])).toEqual({
      name: NAME,
      sources: ['https://gw.example/ipfs-gw', 'https://other.example'],
    });
    expect(parseFollowTarget(NAME, ['http://[::1]:8080'])).toEqual({ name: NAME, sources: ['http://[::1]:8080'] });
  });

  // Its shapes (a name that is text, present and not too long; `from` a list of texts) are the request schema's: test/unit/http/sync-input.test.ts.
  it('refuses anything else with a 400 naming the parameter, a DNSLink domain included', () => {
    const cases: [string, string][] = [
      ['  ', 'is not an IPNS name'],
      ['example.com', 'is not an IPNS name'],
      ['/ipns/example.com', 'is not an IPNS name'],
      ['/ipfs/bafkqaaa', 'is not an IPNS name'],
      [`/ipns/${NAME}/sub/path`, 'is not an IPNS name'],
      ['bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy', 'is not an IPNS name'],
      [`https://gw.example/ipfs/${NAME}`, 'must end in /ipns/<name>'],
      [`https://gw.example/ipns/${NAME}/docs`, 'must end in /ipns/<name>'],
      [`https://user:pw@gw.example/ipns/${NAME}`, 'must not carry credentials'],
      [`https://gw.example/ipns/${NAME}?filename=x`, 'must not carry a query'],
      [`ftp://gw.example/ipns/${NAME}`, 'is not an IPNS name'],
      ['http://', 'is not a URL'],
      [`https://gw.example/ipns/${NAME.slice(0, -3)}`, 'is not an IPNS name'],
    ];
    for (const [input, message] of cases) {
      const error = refused(input);
      expect(error.message, String(input).slice(0, 80)).toContain(message);
      expect(error.message.startsWith('name')).toBe(true);
    }
    expect(refused(NAME, ['file:///etc']).message).toContain('from: ');
    expect(refused(NAME, ['']).message).toBe('from: an http or https URL is required');
    expect(
      refused(
        NAME,
        Array.from({ length: 17 }, (_, i) => `https://gw${i}.example`),
      ).message,
    ).toContain('from: at most 16');
    expect(
      refused(
        `https://gw.example/ipns/${NAME}`,
        Array.from({ length: 16 }, (_, i) => `https://gw${i}.example`),
      ).message,
    ).toContain('from: at most 16');
  });

  it('labels incoming files by the first gateway host (no port, no colon), else by the name cut short', () => {
    expect(followSourceLabel({ name: NAME, sources: ['http://127.0.0.1:5080', 'https://b.example'] })).toBe('127.0.0.1');
    expect(followSourceLabel({ name: NAME, sources: ['http://[::1]:8080'] })).toBe('--1');
    expect(followSourceLabel({ name: NAME, sources: [] })).toBe('k51qzi5u…6dam');
  });
});
