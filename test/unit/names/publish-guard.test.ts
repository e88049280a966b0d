import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../main/base/errors.js';
import { decidePublish, isConflict, MAX_PUBLISHABLE_SEQ, newestForeign, sameValue } from '../../../main/names/publish-guard.js';

// The same raw block as CIDv1 (what a record says) and as the bare text a names row keeps.
const V1 = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';
const OTHER = 'bafkreidfxtwdn2ehtqxhzqpukhyqbsmtrhq4fwvfmjdijjzlbvb7g2ei2e';
// A dag-pb CIDv0 and its CIDv1: the same content, spelled two ways.
const DAG_V0 = 'QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn';
const DAG_V1 = 'bafybeiczsscdsbs7ffqz55asqdf3smv6klcw3gofszvwlyarci47bgf354';

describe('two machines, one name: the publish decision', () => {
  it('compares what records point at by content, whatever the spelling', () => {
    expect(sameValue(`/ipfs/${V1}`, V1)).toBe(true);
    expect(sameValue(`/ipfs/${DAG_V1}`, DAG_V0)).toBe(true);
    expect(sameValue(`/ipfs/${V1}`, OTHER)).toBe(false);
    expect(sameValue(`/ipfs/${V1}/a`, `/ipfs/${V1}`)).toBe(false);
    expect(sameValue('/ipns/example.org', '/ipns/example.org')).toBe(true);
    expect(sameValue('/ipns/example.org', `/ipfs/${V1}`)).toBe(false);
    expect(sameValue('not a path', `/ipfs/${V1}`)).toBe(false);
  });

  it('a record seen elsewhere conflicts when its sequence is higher, or the same pointing elsewhere; never when older or the name s own', () => {
    const held = { seq: 5, value: V1 };
    expect(isConflict(held, null)).toBe(false);
    expect(isConflict(held, { seq: 6, value: `/ipfs/${V1}` })).toBe(true);
    expect(isConflict(held, { seq: 5, value: `/ipfs/${OTHER}` })).toBe(true);
    expect(isConflict(held, { seq: 5, value: `/ipfs/${V1}` })).toBe(false);
    expect(isConflict(held, { seq: 4, value: `/ipfs/${OTHER}` })).toBe(false);
  });

  it('publishes one above the name s own and every record seen elsewhere', () => {
    expect(decidePublish({ seq: 3, value: V1 }, null, 'stop')).toEqual({ kind: 'publish', seq: 4 });
    // An older record elsewhere (the name's own, not yet replaced there): no conflict, and still above it.
    expect(decidePublish({ seq: 3, value: V1 }, { seq: 2, value: `/ipfs/${OTHER}` }, 'stop')).toEqual({ kind: 'publish', seq: 4 });
    expect(decidePublish({ seq: 0, value: V1 }, null, 'publish')).toEqual({ kind: 'publish', seq: 1 });
  });

  it('stops at a conflict when asked to, naming the record; else publishes over it, above the highest seen', () => {
    const seen = { seq: 9, value: `/ipfs/${OTHER}`, source: 'http://127.0.0.1:1', seenAt: 100 };
    expect(decidePublish({ seq: 3, value: V1 }, seen, 'stop')).toEqual({ kind: 'conflict', seen });
    expect(decidePublish({ seq: 3, value: V1 }, seen, 'publish')).toEqual({ kind: 'publish', seq: 10 });
    // The same sequence signed twice, with different content: a conflict too, and the publish goes above it.
    const twin = { seq: 3, value: `/ipfs/${OTHER}` };
    expect(decidePublish({ seq: 3, value: V1 }, twin, 'stop')).toEqual({ kind: 'conflict', seen: twin });
    expect(decidePublish({ seq: 3, value: V1 }, twin, 'publish')).toEqual({ kind: 'publish', seq: 4 });
  });

  it('refuses to publish past the highest sequence it can sign (409), rather than wrap or round', () => {
    const top = { seq: MAX_PUBLISHABLE_SEQ, value: `/ipfs/${OTHER}` };
    expect(() => decidePublish({ seq: 3, value: V1 }, top, 'publish')).toThrow(ConflictError);
    expect(decidePublish({ seq: 3, value: V1 }, top, 'stop')).toEqual({ kind: 'conflict', seen: top });
  });

  it('keeps of the records found elsewhere the highest that conflicts, sequences past 2^53 as the highest it can sign', () => {
    const held = { seq: 5, value: V1 };
    expect(newestForeign(held, [])).toBeNull();
    // Only the name's own record and older ones: nothing to keep.
    expect(
      newestForeign(held, [
        { seq: 5n, value: `/ipfs/${V1}` },
        { seq: 2n, value: `/ipfs/${OTHER}` },
      ]),
    ).toBeNull();
    const found = [
      { seq: 6n, value: `/ipfs/${OTHER}`, source: 'a' },
      { seq: 8n, value: `/ipfs/${V1}`, source: 'b' },
      { seq: 7n, value: `/ipfs/${OTHER}`, source: 'c' },
    ];
    expect(newestForeign(held, found)).toEqual({ facts: { seq: 8, value: `/ipfs/${V1}` }, found: found[1] });
    const huge = { seq: 2n ** 64n - 1n, value: `/ipfs/${OTHER}`, source: 'd' };
    expect(newestForeign(held, [...found, huge])).toEqual({ facts: { seq: MAX_PUBLISHABLE_SEQ, value: `/ipfs/${OTHER}` }, found: huge });
  });
});
