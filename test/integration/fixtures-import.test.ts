import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CarReader } from '@ipld/car/reader';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PinRecord } from '../../shared/api-types.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { repoRoot } from '../helpers/account-api.js';
import { carImport, gatewayGet, stats, type CarImportAnswer } from './uploads-helpers.js';

/**
 * Every CAR of the fixture set (test/fixtures) through the HTTP API (two-step dag/import), then a handful of the
 * MANIFEST's expectations over HTTP, to prove the wiring end to end. The gateway's own unit tests cover
 * the full matrix.
 */
const fixtures = join(repoRoot, 'test', 'fixtures');

function carFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return carFiles(path);
    return name.endsWith('.car') ? [path] : [];
  });
}

/** Kubo's CARs are partial DAGs (MANIFEST): their roots cannot be pinned complete. */
const isPartial = (path: string) => relative(fixtures, path).startsWith('kubo/');

describe('every fixture CAR imported over HTTP', () => {
  let server: TestServer;
  const cars = carFiles(fixtures).sort();

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('finds the fixture CARs', () => {
    expect(cars.length).toBe(22);
  });

  it('imports each one: 200, its header roots, its block count; complete DAGs pinned', async () => {
    let ingress = 0;
    for (const path of cars) {
      const bytes = new Uint8Array(readFileSync(path));
      const reader = await CarReader.fromBytes(bytes);
      const roots = (await reader.getRoots()).map((root) => root.toString());
      let blockCount = 0;
      let blockBytes = 0;
      for await (const block of reader.blocks()) {
        blockCount++;
        blockBytes += block.bytes.byteLength;
      }
      const partial = isPartial(path);
      const response = await carImport(server, server.owner, bytes, { pinRoots: !partial });
      const name = relative(fixtures, path);
      expect(response.status, name).toBe(200);
      const answer = response.json as CarImportAnswer;
      expect(
        answer.Roots.map((root) => root.Cid['/']),
        name,
      ).toEqual(roots);
      expect(
        answer.Roots.every((root) => root.PinErrorMsg === ''),
        name,
      ).toBe(true);
      expect(answer.Stats, name).toEqual({ BlockCount: blockCount, BlockBytesCount: blockBytes });
      ingress += bytes.byteLength;
      for (const root of roots) {
        const pin = await call<{ data: PinRecord }>(server, 'GET', `/api/v0/pin/${root}`, { key: server.owner });
        if (partial) expect(pin.status, name).toBe(404);
        else expect(pin.json.data?.status, `${name} ${root}`).toBe('pinned');
      }
    }
    expect((await stats(server, server.owner)).ingress).toBe(ingress);
  });

  it('MANIFEST dir-listing: a UTF-8 path gives the file; a directory without slash redirects', async () => {
    const root = 'bafybeig6ka5mlwkl4subqhaiatalkcleo4jgnr3hqwvpmsqfca27cijp3i';
    const file = await gatewayGet(server, server.owner, `/ipfs/${root}/%C4%85/%C4%99/file-%C5%BA%C5%82.txt`);
    expect(file.status).toBe(200);
    expect(file.bytes.toString('utf8')).toBe('I am a txt file on path with utf8\n');
    const redirect = await gatewayGet(server, server.owner, `/ipfs/${root}/%C4%85/%C4%99`);
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toMatch(new RegExp(`^/ipfs/${root}/%C4%85/%C4%99/(\\?.*)?$`));
    expect((await gatewayGet(server, server.owner, `/ipfs/${root}/i-do-not-exist`)).status).toBe(404);
  });

  it('MANIFEST gateway-cache: headers of a nested file and the raw block of a directory', async () => {
    const [r1, r2, r3, r4, f] = [
      'bafybeib3ffl2teiqdncv3mkz4r23b5ctrwkzrrhctdbne6iboayxuxk5ui',
      'bafybeih2w7hjocxjg6g2ku25hvmd53zj7og4txpby3vsusfefw5rrg5sii',
      'bafybeiawdvhmjcz65x5egzx4iukxc72hg4woks6v6fvgyupiyt3oczk5ja',
      'bafybeifq2rzpqnqrsdupncmkmhs3ckxxjhuvdcbvydkgvch3ms24k5lo7q',
      'bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am',
    ];
    const file = await gatewayGet(server, server.owner, `/ipfs/${r1}/root2/root3/root4/index.html`);
    expect(file.status).toBe(200);
    expect(file.bytes.toString()).toBe('hello\n');
    expect(file.headers.get('etag')).toBe(`"${f}"`);
    expect(file.headers.get('cache-control')).toBe('public, max-age=29030400, immutable');
    expect(file.headers.get('x-ipfs-path')).toBe(`/ipfs/${r1}/root2/root3/root4/index.html`);
    expect(file.headers.get('x-ipfs-roots')).toBe([r1, r2, r3, r4, f].join(','));
    const block = await gatewayGet(server, server.owner, `/ipfs/${r1}/root2/root3/root4/`, { query: { format: 'raw' } });
    expect(block.status).toBe(200);
    expect(block.bytes.toString('hex')).toBe(
      '12340a24015512205891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03120a696e6465782e68746d6c18060a020801',
    );
    const notModified = await gatewayGet(server, server.owner, `/ipfs/${r1}/root2/root3/root4/index.html`, { headers: { 'If-None-Match': `"${f}"` } });
    expect(notModified.status).toBe(304);
  });

  it('MANIFEST dir-with-files: a Range on a file, and a multi-block file whole', async () => {
    const root = 'bafybeihchr7vmgjaasntayyatmp5sv6xza57iy2h4xj7g46bpjij6yhrmy';
    const ranged = await gatewayGet(server, server.owner, `/ipfs/${root}/ascii.txt`, { headers: { Range: 'bytes=6-16' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe('bytes 6-16/31');
    expect(ranged.bytes.toString()).toBe('application');
    const multi = await gatewayGet(server, server.owner, `/ipfs/${root}/multiblock.txt`);
    expect(multi.status).toBe(200);
    expect(multi.bytes.byteLength).toBe(1026);
    expect(createHash('sha256').update(multi.bytes).digest('hex')).toBe('998785f13287a9aabc2d7048e4c2905d502ff13ef40f2d135f163b5a762701c5');
  });

  it('MANIFEST percent-encoded filename and HAMT traversal', async () => {
    const percent = await gatewayGet(
      server,
      server.owner,
      '/ipfs/bafybeig675grnxcmshiuzdaz2xalm6ef4thxxds6o6ypakpghm5kghpc34/Portugal%252C+Espa%C3%B1a=Peninsula%20Ib%C3%A9rica.txt',
    );
    expect(percent.status).toBe(200);
    expect(percent.bytes.toString()).toBe('hello from a percent encoded filename\n');
    const hamt = await gatewayGet(server, server.owner, '/ipfs/bafybeidbclfqleg2uojchspzd4bob56dqetqjsj27gy2cq3klkkgxtpn4i/470.txt');
    expect(hamt.status).toBe(200);
    expect(createHash('sha256').update(hamt.bytes).digest('hex')).toBe('998785f13287a9aabc2d7048e4c2905d502ff13ef40f2d135f163b5a762701c5');
  });

  it('MANIFEST Kubo partial DAGs: the 10,100-entry HAMT lists offline; ranges of the 109 MB file decode', async () => {
    const listing = await gatewayGet(server, server.owner, '/ipfs/bafybeiggvykl7skb2ndlmacg2k5modvudocffxjesexlod2pfvg5yhwrqm/', {
      headers: { Accept: 'text/html' },
    });
    expect(listing.status).toBe(200);
    expect(listing.headers.get('content-type')).toMatch(/text\/html/);
    expect(listing.bytes.toString()).toContain('10100.png');
    const file = '/ipfs/bafybeiae5abzv6j3ucqbzlpnx3pcqbr2otbnpot7d2k5pckmpymin4guau';
    const iana = await gatewayGet(server, server.owner, file, { headers: { Range: 'bytes=1276-1279' } });
    expect(iana.status).toBe(206);
    expect(iana.headers.get('content-range')).toBe('bytes 1276-1279/109266405');
    expect(iana.bytes.toString()).toBe('iana');
    const example = await gatewayGet(server, server.owner, file, { headers: { Range: 'bytes=29839070-29839080' } });
    expect(example.status).toBe(206);
    expect(example.bytes.toString()).toBe('EXAMPLE.COM');
  });

  it('MANIFEST tooling dag.car: files equal the original inputs', async () => {
    const root = 'bafybeidlbwbu73tbjr3atntjz4lq5ego5w2uyof35vvwcnheaftzi3rndu';
    for (const path of ['a-file.txt', 'b-file.txt', 'subdir/leaf.txt']) {
      const response = await gatewayGet(server, server.owner, `/ipfs/${root}/${path}`);
      expect(response.status, path).toBe(200);
      expect(Buffer.compare(response.bytes, readFileSync(join(fixtures, 'gateway-conformance/tooling/car/_fixtures/dir', path))), path).toBe(0);
    }
  });

  it('MANIFEST dag-json traversal: pathing through links, 501 on a non-link node', async () => {
    const listing = await call(server, 'GET', '/api/v0/dag/get', {
      key: server.owner,
      query: { arg: 'baguqeeram5ujjqrwheyaty3w5gdsmoz6vittchvhk723jjqxk7hakxkd47xq' },
    });
    expect(listing.status).toBe(200);
    const through = await gatewayGet(server, server.owner, '/ipfs/baguqeeram5ujjqrwheyaty3w5gdsmoz6vittchvhk723jjqxk7hakxkd47xq/foo/link/bar', {
      query: { format: 'dag-json' },
    });
    expect(through.status).toBe(200);
    expect(JSON.parse(through.bytes.toString())).toEqual({ hello: 'this is not a link' });
    const inside = await gatewayGet(server, server.owner, '/ipfs/baguqeeram5ujjqrwheyaty3w5gdsmoz6vittchvhk723jjqxk7hakxkd47xq/foo', {
      query: { format: 'dag-json' },
    });
    expect(inside.status).toBe(501);
  });
});
