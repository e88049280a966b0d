import { CID } from 'multiformats/cid';
import { describe, expect, it } from 'vitest';
import { parsePsaListQuery, parsePsaPin } from '../../../main/http/psa-params.js';

const V0 = 'QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn';
const V1 = 'bafybeiczsscdsbs7ffqz55asqdf3smv6klcw3gofszvwlyarci47bgf354';
const RAW = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku';

describe('Pinning Service API parameters', () => {
  it('reads a Pin: cid, name, meta, and origins narrowed to HTTP(S) multiaddrs; absent parts are null', () => {
    expect(parsePsaPin({ cid: RAW })).toEqual({ cid: CID.parse(RAW), name: null, meta: null, origins: null });
    expect(
      parsePsaPin({
        cid: V0,
        name: 'Précious.pdf',
        meta: { app_id: 'x' },
        origins: ['/ip4/198.51.100.7/tcp/4001/p2p/12D3KooWGzxzKZYveHXtpG6AsrUJBcWxHBFS2HsEoGTxrMLvKXtf', '/dns4/a.example/tcp/443/https'],
        extra: 1,
      }),
    ).toEqual({ cid: CID.parse(V0), name: 'Précious.pdf', meta: { app_id: 'x' }, origins: ['/dns4/a.example/tcp/443/https'] });
    expect(parsePsaPin({ cid: RAW, name: null, meta: null, origins: null })).toMatchObject({ name: null, meta: null, origins: null });
  });

  it('refuses a bad Pin with a 400 naming the field', () => {
    const refused = (body: Record<string, unknown>) => () => parsePsaPin(body);
    expect(refused({})).toThrow('cid is required (a CID)');
    expect(refused({ cid: 'nope' })).toThrow('cid is not a valid CID: nope');
    expect(refused({ cid: RAW, name: 'x'.repeat(256) })).toThrow('name must be at most 255 characters');
    expect(refused({ cid: RAW, name: 5 })).toThrow('name must be a string');
    expect(refused({ cid: RAW, origins: '/ip4/1.2.3.4/tcp/80/http' })).toThrow('origins must be an array of multiaddrs');
    expect(refused({ cid: RAW, origins: Array.from({ length: 21 }, (_, i) => `/ip4/1.2.3.4/tcp/${i + 1}/http`) })).toThrow(
      'origins must hold at most 20 multiaddrs',
    );
    expect(refused({ cid: RAW, origins: [7] })).toThrow('origins must be multiaddr strings');
    expect(refused({ cid: RAW, meta: ['a'] })).toThrow('meta must be an object of strings');
    expect(refused({ cid: RAW, meta: { a: 1 } })).toThrow('meta.a must be a string');
    expect(refused({ cid: RAW, meta: Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, ''])) })).toThrow(
      'meta must hold at most 1000 entries',
    );
    expect(refused({ cid: RAW, meta: { big: 'x'.repeat(17_000) } })).toThrow('meta must be at most 16384 characters as JSON');
  });

  it('lists only pinned pins when no filter is given, every status when another filter is', () => {
    expect(parsePsaListQuery({})).toEqual({ statuses: ['pinned'], cids: null, name: null, meta: null, beforeMs: null, afterMs: null, limit: 10 });
    expect(parsePsaListQuery({ limit: '1000', match: 'ipartial' }).statuses).toEqual(['pinned']);
    expect(parsePsaListQuery({ name: 'x' }).statuses).toEqual(['queued', 'pinning', 'pinned', 'failed']);
    expect(parsePsaListQuery({ after: '2026-01-01T00:00:00Z' }).statuses).toHaveLength(4);
  });

  it('reads comma-separated and repeated lists, CIDs in every stored spelling, the name match and meta in both forms', () => {
    expect(parsePsaListQuery({ status: 'queued,pinning', cid: [`${V0},${RAW}`, V0] })).toMatchObject({ statuses: ['queued', 'pinning'], cids: [V0, V1, RAW] });
    expect(parsePsaListQuery({ name: 'Report', match: 'iexact' }).name).toEqual({ text: 'Report', match: 'iexact' });
    expect(parsePsaListQuery({ name: 'Report' }).name).toEqual({ text: 'Report', match: 'exact' });
    expect(parsePsaListQuery({ meta: '{"app_id":"99986338"}' }).meta).toEqual({ app_id: '99986338' });
    expect(parsePsaListQuery({ 'meta[app_id]': '99986338', 'meta[v]': '' }).meta).toEqual({ app_id: '99986338', v: '' });
    expect(parsePsaListQuery({ limit: '1000' }).limit).toBe(1000);
  });

  it('reads before and after as RFC 3339; a fraction of a millisecond left over moves before one millisecond on', () => {
    const at = Date.parse('2026-11-28T03:34:56Z');
    expect(parsePsaListQuery({ before: '2026-11-28T03:34:56Z', after: '2026-11-28T03:34:56.123Z' })).toMatchObject({ beforeMs: at, afterMs: at + 123 });
    expect(parsePsaListQuery({ before: '2026-11-28T05:34:56.5+02:00' }).beforeMs).toBe(at + 500);
    expect(parsePsaListQuery({ before: '2026-11-28t03:34:56.0031z' }).beforeMs).toBe(at + 4);
    expect(parsePsaListQuery({ after: '2026-11-28T03:34:56.0039Z' }).afterMs).toBe(at + 3);
  });

  it('refuses bad list parameters with a 400 naming them', () => {
    const refused = (query: Record<string, unknown>) => () => parsePsaListQuery(query);
    expect(refused({ status: 'pinned,done' })).toThrow('status must be a comma-separated list of queued, pinning, pinned, failed');
    expect(refused({ status: 'unpinning' })).toThrow('status must be');
    expect(refused({ cid: 'nope' })).toThrow('cid is not a valid CID');
    expect(
      refused({
        cid: Array.from({ length: 11 }, () => 'x')
          .map((_, i) => `${RAW.slice(0, -2)}${i}a`)
          .join(','),
      }),
    ).toThrow('cid must name at most 10 CIDs');
    expect(refused({ match: 'regex', name: 'x' })).toThrow('match must be one of exact, iexact, partial, ipartial');
    expect(refused({ name: 'x'.repeat(256) })).toThrow('name must be at most 255 characters');
    expect(refused({ name: ['a', 'b'] })).toThrow('name must be given once');
    for (const limit of ['0', '1001', '-1', '1.5', 'ten', '00000010000']) expect(refused({ limit }), limit).toThrow('limit must be an integer from 1 to 1000');
    for (const time of ['yesterday', '2026-11-28', '2026-11-28T03:34Z', '2026-13-28T03:34:56Z', '1700000000'])
      expect(refused({ before: time }), time).toThrow('before must be an RFC 3339 date-time');
    expect(refused({ meta: '{"a":' })).toThrow('meta must be a JSON object of strings');
    expect(refused({ meta: '{"a":1}' })).toThrow('meta.a must be a string');
    expect(refused({ meta: '{"a":"1"}', 'meta[b]': '2' })).toThrow('meta must be given one way');
  });
});
