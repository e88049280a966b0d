import { describe, expect, it } from 'vitest';
import { canonicalLocation, isImmutableRequest, resolutionKey } from '../../../../main/http/gateway/dispatch-paths.js';
import { chooseFormat } from '../../../../main/http/gateway/negotiate.js';
import { parseRequestTarget } from '../../../../main/http/gateway/request-target.js';

const CID_V1 = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';

describe('dispatch paths', () => {
  it('takes the immutable way for /ipfs paths only, and not for only-if-cached', () => {
    const ipfs = parseRequestTarget(`/ipfs/${CID_V1}/a`);
    const ipns = parseRequestTarget('/ipns/example.org/a');
    expect(isImmutableRequest(ipfs, chooseFormat('', undefined, 'ipfs'), false)).toBe(true);
    expect(isImmutableRequest(ipfs, chooseFormat('?format=car', undefined, 'ipfs'), false)).toBe(true);
    expect(isImmutableRequest(ipfs, chooseFormat('', undefined, 'ipfs'), true)).toBe(false);
    expect(isImmutableRequest(ipns, chooseFormat('', undefined, 'ipns'), false)).toBe(false);
    expect(isImmutableRequest(ipns, chooseFormat('?format=ipns-record', undefined, 'ipns'), false)).toBe(false);
  });

  it('keeps the rest of the path, still encoded, and the query under the canonical name', () => {
    const target = parseRequestTarget('/ipns/k51Name/a%20b/c?format=raw&x=1');
    expect(canonicalLocation(target, 'k51canonical')).toBe('/ipns/k51canonical/a%20b/c?format=raw&x=1');
    expect(canonicalLocation(parseRequestTarget('/ipns/k51Name'), 'k51canonical')).toBe('/ipns/k51canonical');
  });

  it("caches a name's resolution under its answer's key and the path after it; without a name, the path's own", () => {
    const bare = parseRequestTarget('/ipns/example.org');
    const deep = parseRequestTarget('/ipns/example.org/a%20b/c');
    expect(resolutionKey(bare, `${CID_V1}/x`)).toBe(`${CID_V1}/x`);
    expect(resolutionKey(deep, `${CID_V1}/x`)).toBe(`${CID_V1}/x/a b/c`);
    expect(resolutionKey(deep, undefined)).toBe(deep.key);
  });
});
