import { describe, expect, it } from 'vitest';
import { AppError, BadInputError } from '../../../main/base/errors.js';
import {
  parseFolderPathText,
  parseForce,
  parseIgnoreBody,
  parseRetentionBody,
  parseSyncAddBody,
  parseSyncFollowBody,
  parseSyncId,
  parseVersionRoot,
  parseVersionsPage,
  parseWait,
} from '../../../main/http/sync-params.js';

const NAME = 'k51qzi5uqu5dk3v4rmjber23h16xnr23bsggmqqil9z2gduiis5se8dht36dam';
const PEER_ID = '12D3KooWLQzUv2FHWGVPXTXSZpdHs7oHbXub2G5WC8Tx4NQhyd2d';
const CID_TEXT = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';

/** The refusal `parse` throws: a 400 with its message and param, as the envelope carries them. */
function refusal(parse: () => unknown): { message: string; param: string | undefined } {
  try {
    parse();
  } catch (error) {
    if (!(error instanceof BadInputError)) throw error;
    return { message: error.message, param: (error as AppError).param };
  }
  throw new Error('accepted');
}

describe('sync request parameters (http/sync-params.ts)', () => {
  it('an id: required, text of at most 64 characters', () => {
    expect(parseSyncId('f1')).toBe('f1');
    expect(parseSyncId('x'.repeat(64))).toBe('x'.repeat(64));
    for (const missing of [undefined, null, '']) expect(refusal(() => parseSyncId(missing)).message).toBe('id is required');
    for (const bad of ['x'.repeat(65), 7, ['a', 'b']]) expect(refusal(() => parseSyncId(bad)).message).toBe('id must be a sync folder id');
  });

  it('flags: wait defaults to true, force to false; anything but true or false is refused', () => {
    expect([undefined, '', 'true'].map(parseWait)).toEqual([true, true, true]);
    expect(parseWait('false')).toBe(false);
    expect(refusal(() => parseWait('no')).message).toBe('wait must be true or false');
    expect([undefined, '', 'false', false].map(parseForce)).toEqual([false, false, false, false]);
    expect([parseForce('true'), parseForce(true)]).toEqual([true, true]);
    expect(refusal(() => parseForce('maybe')).message).toBe('force must be true or false');
  });

  it("a folder's path text: present, a string, absolute, without NUL, naming path", () => {
    expect(parseFolderPathText('/home/me/photos')).toBe('/home/me/photos');
    const cases: [unknown, string][] = [
      [undefined, 'path is required'],
      ['', 'path is required'],
      [5, 'path must be a string'],
      ['/a\0b', 'path is not a valid folder path'],
      [`/${'a'.repeat(4096)}`, 'path is not a valid folder path'],
      ['relative/path', 'path must be absolute'],
    ];
    for (const [value, message] of cases) expect(refusal(() => parseFolderPathText(value))).toEqual({ message, param: 'path' });
  });

  it('sync/add: defaults, a given name in its canonical spelling, a policy parsed', () => {
    expect(parseSyncAddBody({ path: '/p' })).toEqual({ path: '/p', ipns: true, ignore: [] });
    const full = parseSyncAddBody({ path: '/p', ipns: true, ipns_name: ` ${PEER_ID} `, ignore: ['*.log'], keep: 'all' });
    expect(full).toEqual({ path: '/p', ipns: true, ipnsName: NAME, ignore: ['*.log'], keep: { keep: 'all' } });
    expect(parseSyncAddBody({ path: '/p', ipns: false, ipns_name: '', keep: null })).toEqual({ path: '/p', ipns: false, ignore: [] });
  });

  it('sync/add: each field refused with the message it always had, the first field in the old order winning', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ path: '/p', ipns: 'yes' }, /^ipns must be true or false$/],
      [{ path: '/p', ipns_name: 'not-a-name' }, /^ipns_name must be an IPNS name/],
      [{ path: '/p', ipns_name: 7 }, /^ipns_name must be an IPNS name/],
      [{ path: '/p', ipns: false, ipns_name: NAME }, /^ipns_name cannot be given with ipns: false$/],
      [{ path: '/p', ignore: 'a' }, /^ignore must be an array/],
      [{ path: '/p', keep: 5 }, /^keep: must be all, none or up to/],
      [{ path: '/p', keep: '24x:all' }, /^keep: within "24x"/],
      [{ path: 'rel' }, /^path must be absolute$/],
      // Several faults: ipns before ipns_name before ignore before keep before path.
      [{ path: 'rel', ipns: 1, ipns_name: 'x', ignore: 'a', keep: 5 }, /^ipns must be/],
      [{ path: 'rel', ipns_name: 'x', ignore: 'a', keep: 5 }, /^ipns_name must be/],
      [{ path: 'rel', ignore: 'a', keep: 5 }, /^ignore must be/],
      [{ path: 'rel', keep: 5 }, /^keep: must be/],
    ];
    for (const [body, message] of cases) expect(refusal(() => parseSyncAddBody(body)).message, JSON.stringify(body)).toMatch(message);
  });

  it('sync/follow: the target, then the path; each refusal naming its param', () => {
    expect(parseSyncFollowBody({ name: `/ipns/${NAME}`, path: '/m' })).toEqual({ target: { name: NAME, sources: [] }, path: '/m' });
    expect(refusal(() => parseSyncFollowBody({ path: 'rel' }))).toMatchObject({ param: 'name' });
    expect(refusal(() => parseSyncFollowBody({ name: NAME, path: 'rel' }))).toEqual({ message: 'path must be absolute', param: 'path' });
  });

  it('sync/ignore and sync/retention: the field is required', () => {
    expect(parseIgnoreBody({ ignore: [] })).toEqual([]);
    expect(parseIgnoreBody({ ignore: ['build/'] })).toEqual(['build/']);
    expect(refusal(() => parseIgnoreBody({})).message).toBe('ignore is required (an array of gitignore patterns; [] for none)');
    expect(refusal(() => parseIgnoreBody({ ignore: [''] })).message).toBe('ignore[0] is empty');
    expect(parseRetentionBody({ keep: ' none ' })).toEqual({ keep: 'none' });
    for (const keep of [undefined, null, 3])
      expect(refusal(() => parseRetentionBody({ keep })).message).toBe('keep is required: all, none or tiers like 24h:all,30d:1d,1y:1w');
    expect(refusal(() => parseRetentionBody({ keep: '' })).message).toMatch(/^keep: must be all, none/);
  });

  it('a versions page: limit 1..1000 (default 50), start from 0 (default 0)', () => {
    expect(parseVersionsPage(undefined, undefined)).toEqual({ limit: 50, start: 0 });
    expect(parseVersionsPage('1000', '7')).toEqual({ limit: 1000, start: 7 });
    expect(refusal(() => parseVersionsPage('0', undefined)).message).toBe('limit must be an integer from 1 to 1000');
    expect(refusal(() => parseVersionsPage('1001', undefined)).message).toBe('limit must be an integer from 0 to 1000');
    expect(refusal(() => parseVersionsPage('abc', undefined)).message).toBe('limit must be an integer from 0 to 1000');
    expect(refusal(() => parseVersionsPage(undefined, '-1')).message).toBe('start must be an integer from 0 to 1000000000');
  });

  it("a version's root: a CID, named by its parameter", () => {
    expect(parseVersionRoot(CID_TEXT, 'root').toString()).toBe(CID_TEXT);
    expect(refusal(() => parseVersionRoot(undefined, 'from')).message).toBe("from is required (a version's root CID)");
    expect(refusal(() => parseVersionRoot(['a'], 'to')).message).toBe("to is required (a version's root CID)");
    expect(refusal(() => parseVersionRoot('not-a-cid', 'root')).message).toBe('root is not a valid CID: not-a-cid');
  });
});
