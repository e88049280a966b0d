import { describe, expect, it } from 'vitest';
import { requestInput } from '../../../main/http/input/request-input.js';
import { SyncDiffQuery, SyncRestoreQuery, SyncTreeQuery, SyncVersionsQuery } from '../../../main/http/input/sync-history-input.js';
import {
  FolderPathText,
  SyncAddBody,
  SyncAddQuery,
  SyncFollowBody,
  SyncIdQuery,
  SyncIgnoreBody,
  SyncPublishQuery,
  SyncRetentionBody,
} from '../../../main/http/input/sync-input.js';
import { refusalOf } from '../../helpers/input-refusal.js';

const NAME = 'k51qzi5uqu5dk3v4rmjber23h16xnr23bsggmqqil9z2gduiis5se8dht36dam';
const PEER_ID = '12D3KooWLQzUv2FHWGVPXTXSZpdHs7oHbXub2G5WC8Tx4NQhyd2d';
const CID_TEXT = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';

type Cases = [Record<string, unknown>, string, string][];

/** Each case refused with its message, naming its field. */
function expectRefusals(read: (value: Record<string, unknown>) => unknown, cases: Cases): void {
  for (const [value, message, param] of cases)
    expect(
      refusalOf(() => read(value)),
      JSON.stringify(value).slice(0, 100),
    ).toEqual({ message, param });
}

describe('sync request schemas (http/input/sync-input.ts)', () => {
  it('an id: required, text of at most 64 characters', () => {
    expect(requestInput(SyncIdQuery, { id: 'f1' })).toEqual({ id: 'f1' });
    expect(requestInput(SyncIdQuery, { id: 'x'.repeat(64) }).id).toBe('x'.repeat(64));
    expectRefusals(
      (query) => requestInput(SyncIdQuery, query),
      [
        [{}, 'id is required', 'id'],
        [{ id: '' }, 'id is required', 'id'],
        [{ id: 'x'.repeat(65) }, 'id must be a sync folder id', 'id'],
        [{ id: ['a', 'b'] }, 'id must be a sync folder id', 'id'],
      ],
    );
  });

  it('flags: wait defaults to true, force to false; anything but true or false is refused', () => {
    expect([{}, { wait: '' }, { wait: 'true' }].map((query) => requestInput(SyncAddQuery, query).wait)).toEqual([true, true, true]);
    expect(requestInput(SyncAddQuery, { wait: 'false' }).wait).toBe(false);
    expect([{}, { force: '' }, { force: 'false' }].map((query) => requestInput(SyncPublishQuery, { id: 'f', ...query }).force)).toEqual([false, false, false]);
    expect(requestInput(SyncPublishQuery, { id: 'f', force: 'true' })).toEqual({ id: 'f', force: true });
    expectRefusals(
      (query) => requestInput(SyncAddQuery, query),
      [
        [{ wait: 'no' }, 'wait must be true or false', 'wait'],
        [{ wait: ['true', 'true'] }, 'wait must be true or false', 'wait'],
      ],
    );
    expectRefusals(
      (query) => requestInput(SyncPublishQuery, query),
      [
        [{ id: 'f', force: 'maybe' }, 'force must be true or false', 'force'],
        // The id first.
        [{ force: 'maybe' }, 'id is required', 'id'],
      ],
    );
  });

  it("a folder's path text: present, a string, absolute, without NUL, naming path", () => {
    const Path = (value: unknown) => requestInput(FolderPathText, value);
    expect(Path('/home/me/photos')).toBe('/home/me/photos');
    const cases: [unknown, string][] = [
      [undefined, 'path is required'],
      ['', 'path is required'],
      [5, 'path must be a string'],
      ['/a\0b', 'path is not a valid folder path'],
      [`/${'a'.repeat(4096)}`, 'path is not a valid folder path'],
      ['relative/path', 'path must be absolute'],
    ];
    for (const [value, message] of cases) expect(refusalOf(() => requestInput(SyncAddBody, { path: value }))).toEqual({ message, param: 'path' });
  });

  it('sync/add: defaults, a given name in its canonical spelling, a policy parsed', () => {
    const add = (body: Record<string, unknown>) => requestInput(SyncAddBody, body);
    expect(add({ path: '/p' })).toEqual({ path: '/p', ipns: true, ignore: [] });
    const full = add({ path: '/p', ipns: true, ipns_name: ` ${PEER_ID} `, ignore: ['*.log'], keep: 'all' });
    expect(full).toEqual({ path: '/p', ipns: true, ipnsName: NAME, ignore: ['*.log'], keep: { keep: 'all' } });
    expect(add({ path: '/p', ipns: false, ipns_name: '', keep: null, ignore: null })).toEqual({ path: '/p', ipns: false, ignore: [] });
    expect(add({ path: '/p', ipns: null })).toMatchObject({ ipns: true });
  });

  it('sync/add: each field refused with the message it always had, naming the field', () => {
    expectRefusals(
      (body) => requestInput(SyncAddBody, body),
      [
        [{ path: '/p', ipns: 'yes' }, 'ipns must be true or false', 'ipns'],
        [{ path: '/p', ipns_name: 'not-a-name' }, 'ipns_name must be an IPNS name (k51…)', 'ipns_name'],
        [{ path: '/p', ipns_name: 7 }, 'ipns_name must be an IPNS name (k51…)', 'ipns_name'],
        [{ path: '/p', ipns: false, ipns_name: NAME }, 'ipns_name cannot be given with ipns: false', 'ipns_name'],
        [{ path: '/p', ignore: 'a' }, 'ignore must be an array of gitignore patterns', 'ignore'],
        [{ path: '/p', ignore: Array.from({ length: 1001 }, () => 'a') }, 'ignore has more than 1000 patterns', 'ignore'],
        [{ path: '/p', ignore: ['a', 1] }, 'ignore[1] must be a string', 'ignore'],
        [{ path: '/p', ignore: ['a', ''] }, 'ignore[1] is empty', 'ignore'],
        [{ path: '/p', ignore: ['a\nb'] }, 'ignore[0] must be one pattern without line breaks or NUL', 'ignore'],
        [{ path: '/p', keep: 5 }, 'keep: must be all, none or up to 16 tiers like 24h:all,30d:1d,1y:1w', 'keep'],
        [{ path: '/p', keep: '24x:all' }, 'keep: within "24x" is not a duration such as 90m, 24h, 30d, 4w or 1y (up to 100y)', 'keep'],
        [{ path: 'rel' }, 'path must be absolute', 'path'],
        // Several faults: ipns before ipns_name before ignore before keep before path.
        [{ path: 'rel', ipns: 1, ipns_name: 'x', ignore: 'a', keep: 5 }, 'ipns must be true or false', 'ipns'],
        [{ path: 'rel', ipns_name: 'x', ignore: 'a', keep: 5 }, 'ipns_name must be an IPNS name (k51…)', 'ipns_name'],
        [{ path: 'rel', ignore: 'a', keep: 5 }, 'ignore must be an array of gitignore patterns', 'ignore'],
        [{ path: 'rel', keep: 5 }, 'keep: must be all, none or up to 16 tiers like 24h:all,30d:1d,1y:1w', 'keep'],
        // A name beside ipns: false is a fault of the two together, answered once each field passed.
        [{ path: 'rel', ipns: false, ipns_name: NAME }, 'path must be absolute', 'path'],
        // Within ignore: the list's shape, then each pattern.
        [{ path: '/p', ignore: ['', 1] }, 'ignore[1] must be a string', 'ignore'],
      ],
    );
  });

  it('sync/follow: the target, then the path; each refusal naming its param', () => {
    const follow = (body: Record<string, unknown>) => requestInput(SyncFollowBody, body);
    expect(follow({ name: `/ipns/${NAME}`, path: '/m' })).toEqual({ target: { name: NAME, sources: [] }, path: '/m' });
    expect(follow({ name: NAME, from: ['https://gw.example/'], path: '/m' })).toEqual({ target: { name: NAME, sources: ['https://gw.example'] }, path: '/m' });
    expect(follow({ name: NAME, from: null, path: '/m' }).target.sources).toEqual([]);
    const gateways = (count: number) => Array.from({ length: count }, (_, i) => `https://gw${i}.example`);
    expectRefusals(follow, [
      [{ path: '/m' }, 'name is required: an IPNS name, /ipns/<name> or a gateway URL ending in /ipns/<name>', 'name'],
      [{ name: '', path: '/m' }, 'name is required: an IPNS name, /ipns/<name> or a gateway URL ending in /ipns/<name>', 'name'],
      [{ name: 42, path: '/m' }, 'name must be an IPNS name, /ipns/<name> or a gateway URL ending in /ipns/<name>', 'name'],
      [{ name: 'x'.repeat(2049), path: '/m' }, 'name must be an IPNS name, /ipns/<name> or a gateway URL ending in /ipns/<name>', 'name'],
      [
        { name: 'example.com', path: '/m' },
        'name: "example.com" is not an IPNS name (a k51…, 12D3KooW… or Qm… key; a DNSLink domain cannot be followed)',
        'name',
      ],
      [{ name: NAME, from: 'https://gw.example', path: '/m' }, 'from: a list of URLs is required', 'from'],
      [{ name: NAME, from: [7], path: '/m' }, 'from: an http or https URL is required', 'from'],
      [{ name: NAME, from: ['file:///etc'], path: '/m' }, 'from: "file:///etc" is not an http or https URL', 'from'],
      [{ name: NAME, from: gateways(17), path: '/m' }, 'from: at most 16 URLs', 'from'],
      [{ name: `https://gw.example/ipns/${NAME}`, from: gateways(16), path: '/m' }, 'from: at most 16 gateways in all', 'from'],
      [{ name: NAME, path: 'rel' }, 'path must be absolute', 'path'],
      // Several faults: the name's and from's shapes, then the path's, then what the target says.
      [{ name: 42, from: 'x', path: 'rel' }, 'name must be an IPNS name, /ipns/<name> or a gateway URL ending in /ipns/<name>', 'name'],
      [{ name: NAME, from: 'x', path: 'rel' }, 'from: a list of URLs is required', 'from'],
      [{ name: 'example.com', from: ['file:///etc'], path: 'rel' }, 'path must be absolute', 'path'],
      [{ name: 'example.com', from: ['file:///etc'], path: '/m' }, 'from: "file:///etc" is not an http or https URL', 'from'],
    ]);
  });

  it('sync/ignore and sync/retention: the field is required', () => {
    expect(requestInput(SyncIgnoreBody, { ignore: [] })).toEqual({ ignore: [] });
    expect(requestInput(SyncIgnoreBody, { ignore: ['build/'] })).toEqual({ ignore: ['build/'] });
    expectRefusals(
      (body) => requestInput(SyncIgnoreBody, body),
      [
        [{}, 'ignore is required (an array of gitignore patterns; [] for none)', 'ignore'],
        [{ ignore: null }, 'ignore is required (an array of gitignore patterns; [] for none)', 'ignore'],
        [{ ignore: [''] }, 'ignore[0] is empty', 'ignore'],
        [{ ignore: {} }, 'ignore must be an array of gitignore patterns', 'ignore'],
      ],
    );
    expect(requestInput(SyncRetentionBody, { keep: ' none ' })).toEqual({ keep: { keep: 'none' } });
    expectRefusals(
      (body) => requestInput(SyncRetentionBody, body),
      [
        [{}, 'keep is required: all, none or tiers like 24h:all,30d:1d,1y:1w', 'keep'],
        [{ keep: null }, 'keep is required: all, none or tiers like 24h:all,30d:1d,1y:1w', 'keep'],
        [{ keep: 3 }, 'keep is required: all, none or tiers like 24h:all,30d:1d,1y:1w', 'keep'],
        [{ keep: '' }, 'keep: must be all, none or up to 16 tiers like 24h:all,30d:1d,1y:1w', 'keep'],
      ],
    );
  });
});

describe('sync history request schemas (http/input/sync-history-input.ts)', () => {
  it('a versions page: limit 1..1000 (default 50), start from 0 (default 0), after the id', () => {
    const versions = (query: Record<string, unknown>) => requestInput(SyncVersionsQuery, { id: 'f', ...query });
    expect(versions({})).toEqual({ id: 'f', limit: 50, start: 0 });
    expect(versions({ limit: '1000', start: '7' })).toEqual({ id: 'f', limit: 1000, start: 7 });
    expect(versions({ limit: '', start: '' })).toEqual({ id: 'f', limit: 50, start: 0 });
    expectRefusals(versions, [
      [{ limit: '0' }, 'limit must be an integer from 1 to 1000', 'limit'],
      [{ limit: '1001' }, 'limit must be an integer from 0 to 1000', 'limit'],
      [{ limit: 'abc' }, 'limit must be an integer from 0 to 1000', 'limit'],
      [{ limit: ['1', '2'] }, 'limit must be an integer from 0 to 1000', 'limit'],
      [{ start: '-1' }, 'start must be an integer from 0 to 1000000000', 'start'],
      [{ start: '1000000001' }, 'start must be an integer from 0 to 1000000000', 'start'],
      // A limit of 0 is answered after start, as it always was.
      [{ limit: '0', start: '-1' }, 'start must be an integer from 0 to 1000000000', 'start'],
      [{ id: '', limit: 'abc' }, 'id is required', 'id'],
    ]);
  });

  it("a diff: the id, then the versions' roots, each a CID named by its parameter", () => {
    expect(requestInput(SyncDiffQuery, { id: 'f', from: CID_TEXT, to: CID_TEXT }).from.toString()).toBe(CID_TEXT);
    expectRefusals(
      (query) => requestInput(SyncDiffQuery, query),
      [
        [{ from: 'x', to: 'y' }, 'id is required', 'id'],
        [{ id: 'f', to: CID_TEXT }, "from is required (a version's root CID)", 'from'],
        [{ id: 'f', from: CID_TEXT, to: ['a'] }, "to is required (a version's root CID)", 'to'],
        [{ id: 'f', from: 'not-a-cid', to: 'x' }, 'from is not a valid CID: not-a-cid', 'from'],
        [{ id: 'f', from: CID_TEXT, to: `x${'y'.repeat(200)}` }, `to is not a valid CID: x${'y'.repeat(99)}`, 'to'],
      ],
    );
  });

  it("a tree: the path inside the version first, then the id and the version's root", () => {
    const tree = (query: Record<string, unknown>) => requestInput(SyncTreeQuery, query);
    expect(tree({ id: 'f', root: CID_TEXT }).path).toEqual([]);
    expect(tree({ id: 'f', root: CID_TEXT, path: '/' }).path).toEqual([]);
    expect(tree({ id: 'f', root: CID_TEXT, path: '/docs/a b/' }).path).toEqual(['docs', 'a b']);
    expectRefusals(tree, [
      [{ id: 'f', root: CID_TEXT, path: ['a', 'b'] }, 'path must be a path inside the folder, `/`-separated', 'path'],
      [{ id: 'f', root: CID_TEXT, path: 'a/../b' }, 'path: segment ".." is not allowed', 'path'],
      [{ id: 'f', root: CID_TEXT, path: 'a//b' }, 'path: segment "" is not allowed', 'path'],
      [{ id: 'f', root: CID_TEXT, path: '//' }, 'path: segment "" is not allowed', 'path'],
      [{ id: 'f', root: CID_TEXT, path: 'a\0' }, 'path: NUL is not allowed in a segment', 'path'],
      [{ path: '..', root: 'x' }, 'path: segment ".." is not allowed', 'path'],
      [{ root: 'x' }, 'id is required', 'id'],
      [{ id: 'f', root: 'x' }, 'root is not a valid CID: x', 'root'],
    ]);
  });

  it('a restore: path, overwrite and to, then the id and the root', () => {
    const restore = (query: Record<string, unknown>) => requestInput(SyncRestoreQuery, query);
    expect(restore({ id: 'f', root: CID_TEXT })).toMatchObject({ path: [], overwrite: false, to: undefined, id: 'f' });
    expect(restore({ id: 'f', root: CID_TEXT, path: 'a/b.txt', overwrite: 'true', to: '/tmp/restored/' })).toMatchObject({
      path: ['a', 'b.txt'],
      overwrite: true,
      to: '/tmp/restored',
    });
    expect(restore({ id: 'f', root: CID_TEXT, to: '' }).to).toBeUndefined();
    expectRefusals(restore, [
      [{ id: 'f', root: CID_TEXT, overwrite: 'yes' }, 'overwrite must be true or false', 'overwrite'],
      [{ id: 'f', root: CID_TEXT, to: ['/a', '/b'] }, 'to must be the absolute path of a folder', 'to'],
      [
        { id: 'f', root: CID_TEXT, to: 'restored' },
        'to must be an absolute path (a relative one would depend on the service\'s working folder), not "restored"',
        'to',
      ],
      [{ id: 'f', root: CID_TEXT, to: '/tmp/../etc' }, 'to must be a normalized path, without empty, "." or ".." segments: "/tmp/../etc"', 'to'],
      // Several faults: path, overwrite, to, id, root.
      [{ path: '..', overwrite: 'x', to: 'rel' }, 'path: segment ".." is not allowed', 'path'],
      [{ overwrite: 'x', to: 'rel' }, 'overwrite must be true or false', 'overwrite'],
      [{ to: 'rel', root: 'x' }, 'to must be an absolute path (a relative one would depend on the service\'s working folder), not "rel"', 'to'],
      [{ root: 'x' }, 'id is required', 'id'],
      [{ id: 'f' }, "root is required (a version's root CID)", 'root'],
    ]);
  });
});
