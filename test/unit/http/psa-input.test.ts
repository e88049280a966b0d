import { CID } from 'multiformats/cid';
import { describe, expect, it } from 'vitest';
import { PsaListQuerySchema, PsaPinBody, PsaRequestParams } from '../../../main/http/input/psa-input.js';
import { requestInput } from '../../../main/http/input/request-input.js';
import { refusalOf } from '../../helpers/input-refusal.js';

const V0 = 'QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn';
const V1 = 'bafybeiczsscdsbs7ffqz55asqdf3smv6klcw3gofszvwlyarci47bgf354';
const RAW = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku';

const parsePsaPin = (body: Record<string, unknown>) => requestInput(PsaPinBody, body);
const parsePsaListQuery = (query: Record<string, unknown>) => requestInput(PsaListQuerySchema, query);

describe('Pinning Service API request schemas', () => {
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
    expect(parsePsaPin({ cid: RAW, name: '' })).toMatchObject({ name: '' });
  });

  it('refuses a bad Pin with a 400 naming the field', () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{}, 'cid is required (a CID)', 'cid'],
      [{ cid: 'nope' }, 'cid is not a valid CID: nope', 'cid'],
      [{ cid: 7 }, 'cid is required (a CID)', 'cid'],
      [{ cid: RAW, name: 'x'.repeat(256) }, 'name must be at most 255 characters', 'name'],
      [{ cid: RAW, name: 5 }, 'name must be a string', 'name'],
      [{ cid: RAW, origins: '/ip4/1.2.3.4/tcp/80/http' }, 'origins must be an array of multiaddrs', 'origins'],
      [{ cid: RAW, origins: Array.from({ length: 21 }, (_, i) => `/ip4/1.2.3.4/tcp/${i + 1}/http`) }, 'origins must hold at most 20 multiaddrs', 'origins'],
      [{ cid: RAW, origins: [7] }, 'origins must be multiaddr strings of at most 1024 characters', 'origins'],
      [{ cid: RAW, origins: [`/dns4/${'a'.repeat(1025)}/tcp/80/http`] }, 'origins must be multiaddr strings of at most 1024 characters', 'origins'],
      [{ cid: RAW, meta: ['a'] }, 'meta must be an object of strings', 'meta'],
      [{ cid: RAW, meta: 'a' }, 'meta must be an object of strings', 'meta'],
      [{ cid: RAW, meta: { a: 1 } }, 'meta.a must be a string', 'meta'],
      [{ cid: RAW, meta: Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, ''])) }, 'meta must hold at most 1000 entries', 'meta'],
      [{ cid: RAW, meta: { big: 'x'.repeat(17_000) } }, 'meta must be at most 16384 characters as JSON', 'meta'],
      // Several faults: the first field in the order cid, name, meta, origins.
      [{ cid: 'nope', name: 5, meta: 1, origins: 1 }, 'cid is not a valid CID: nope', 'cid'],
      [{ cid: RAW, name: 5, meta: 1, origins: 1 }, 'name must be a string', 'name'],
      [{ cid: RAW, meta: 1, origins: 1 }, 'meta must be an object of strings', 'meta'],
      // Within origins: the array, then its length, then its items.
      [{ cid: RAW, origins: Array.from({ length: 21 }, () => 7) }, 'origins must hold at most 20 multiaddrs', 'origins'],
    ];
    for (const [body, message, param] of cases)
      expect(
        refusalOf(() => parsePsaPin(body)),
        JSON.stringify(body).slice(0, 80),
      ).toEqual({ message, param });
  });

  it('reads the request id of a pin path', () => {
    expect(requestInput(PsaRequestParams, { requestid: 'abc' })).toEqual({ requestid: 'abc' });
    expect(refusalOf(() => requestInput(PsaRequestParams, {}))).toEqual({ message: 'requestid is required', param: 'requestid' });
  });

  it('lists only pinned pins when no filter is given, every status when another filter is', () => {
    expect(parsePsaListQuery({})).toEqual({ statuses: ['pinned'], cids: null, name: null, meta: null, beforeMs: null, afterMs: null, limit: 10 });
    expect(parsePsaListQuery({ limit: '1000', match: 'ipartial' }).statuses).toEqual(['pinned']);
    expect(parsePsaListQuery({ name: 'x' }).statuses).toEqual(['queued', 'pinning', 'pinned', 'failed']);
    expect(parsePsaListQuery({ after: '2026-01-01T00:00:00Z' }).statuses).toHaveLength(4);
    expect(parsePsaListQuery({ meta: '{}' }).statuses).toHaveLength(4);
    // Empty values are no filter.
    expect(parsePsaListQuery({ name: '', cid: '', status: '', before: '', after: '', meta: '', limit: '' })).toEqual(parsePsaListQuery({}));
  });

  it('reads comma-separated and repeated lists, CIDs in every stored spelling, the name match and meta in both forms', () => {
    expect(parsePsaListQuery({ status: 'queued,pinning', cid: [`${V0},${RAW}`, V0] })).toMatchObject({ statuses: ['queued', 'pinning'], cids: [V0, V1, RAW] });
    expect(parsePsaListQuery({ status: ['failed', 'failed,,queued'] }).statuses).toEqual(['failed', 'queued']);
    expect(parsePsaListQuery({ name: 'Report', match: 'iexact' }).name).toEqual({ text: 'Report', match: 'iexact' });
    expect(parsePsaListQuery({ name: 'Report' }).name).toEqual({ text: 'Report', match: 'exact' });
    expect(parsePsaListQuery({ meta: '{"app_id":"99986338"}' }).meta).toEqual({ app_id: '99986338' });
    expect(parsePsaListQuery({ 'meta[app_id]': '99986338', 'meta[v]': '' }).meta).toEqual({ app_id: '99986338', v: '' });
    expect(parsePsaListQuery({ limit: '1000' }).limit).toBe(1000);
    expect(parsePsaListQuery({ limit: '0010' }).limit).toBe(10);
  });

  it('reads before and after as RFC 3339; a fraction of a millisecond left over moves before one millisecond on', () => {
    const at = Date.parse('2026-11-28T03:34:56Z');
    expect(parsePsaListQuery({ before: '2026-11-28T03:34:56Z', after: '2026-11-28T03:34:56.123Z' })).toMatchObject({ beforeMs: at, afterMs: at + 123 });
    expect(parsePsaListQuery({ before: '2026-11-28T05:34:56.5+02:00' }).beforeMs).toBe(at + 500);
    expect(parsePsaListQuery({ before: '2026-11-28t03:34:56.0031z' }).beforeMs).toBe(at + 4);
    expect(parsePsaListQuery({ after: '2026-11-28T03:34:56.0039Z' }).afterMs).toBe(at + 3);
  });

  it('refuses bad list parameters with a 400 naming them', () => {
    const elevenCids = Array.from({ length: 11 }, (_, i) => `${RAW.slice(0, -2)}${i}a`).join(',');
    const cases: [Record<string, unknown>, string, string][] = [
      [{ status: 'pinned,done' }, 'status must be a comma-separated list of queued, pinning, pinned, failed', 'status'],
      [{ status: 'unpinning' }, 'status must be a comma-separated list of queued, pinning, pinned, failed', 'status'],
      [{ status: [['x']] }, 'status must be a comma-separated list', 'status'],
      [{ cid: 'nope' }, 'cid is not a valid CID: nope', 'cid'],
      [{ cid: elevenCids }, 'cid must name at most 10 CIDs', 'cid'],
      [{ match: 'regex', name: 'x' }, 'match must be one of exact, iexact, partial, ipartial', 'match'],
      [{ match: '' }, 'match must be one of exact, iexact, partial, ipartial', 'match'],
      [{ match: ['exact', 'exact'] }, 'match must be given once', 'match'],
      [{ name: 'x'.repeat(256) }, 'name must be at most 255 characters', 'name'],
      [{ name: ['a', 'b'] }, 'name must be given once', 'name'],
      [{ limit: ['1', '2'] }, 'limit must be given once', 'limit'],
      [{ before: ['a', 'b'] }, 'before must be given once', 'before'],
      [{ meta: '{"a":' }, 'meta must be a JSON object of strings', 'meta'],
      [{ meta: '[1]' }, 'meta must be an object of strings', 'meta'],
      [{ meta: '{"a":1}' }, 'meta.a must be a string', 'meta'],
      [{ meta: ['{}', '{}'] }, 'meta must be given once', 'meta'],
      [{ meta: '{"a":"1"}', 'meta[b]': '2' }, 'meta must be given one way: as a JSON object or as meta[key]=value', 'meta'],
      [{ 'meta[b]': ['2', '3'] }, 'meta[b] must be given once', 'meta'],
      // Several faults: the order before, after, cid, match, name, meta, status, limit.
      [{ before: 'x', after: 'y', cid: 'nope', limit: '0' }, 'before must be an RFC 3339 date-time, e.g. 2026-11-28T03:34:56Z', 'before'],
      [{ after: 'y', cid: 'nope', limit: '0' }, 'after must be an RFC 3339 date-time, e.g. 2026-11-28T03:34:56Z', 'after'],
      [{ cid: 'nope', match: 'x', status: 'x' }, 'cid is not a valid CID: nope', 'cid'],
      [{ match: 'x', name: ['a', 'b'] }, 'match must be one of exact, iexact, partial, ipartial', 'match'],
      [{ name: ['a', 'b'], meta: '{' }, 'name must be given once', 'name'],
      [{ meta: '{', status: 'x' }, 'meta must be a JSON object of strings', 'meta'],
      [{ status: 'x', limit: '0' }, 'status must be a comma-separated list of queued, pinning, pinned, failed', 'status'],
    ];
    for (const [query, message, param] of cases)
      expect(
        refusalOf(() => parsePsaListQuery(query)),
        JSON.stringify(query).slice(0, 80),
      ).toEqual({ message, param });
    for (const limit of ['0', '1001', '-1', '1.5', 'ten', '00000010000', '00010'])
      expect(
        refusalOf(() => parsePsaListQuery({ limit })),
        limit,
      ).toEqual({ message: 'limit must be an integer from 1 to 1000', param: 'limit' });
    for (const time of ['yesterday', '2026-11-28', '2026-11-28T03:34Z', '2026-13-28T03:34:56Z', '1700000000'])
      expect(
        refusalOf(() => parsePsaListQuery({ before: time })),
        time,
      ).toEqual({
        message: 'before must be an RFC 3339 date-time, e.g. 2026-11-28T03:34:56Z',
        param: 'before',
      });
  });
});
