import { readFile } from 'node:fs/promises';
import { MemoryBlockstore } from 'blockstore-core/memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../main/base/logger.js';
import { parseCar } from '../../content/read/car-check.js';
import { GC, fixturePath, storeFromCars } from '../../content/read/fixture-store.js';
import { deepEscapeDag, FILE_TEXT, INSIDE_ROOT, insideRootDag, OUTSIDE_ROOT, outsideRootDag } from '../../../helpers/relative-path-dags.js';
import { parseTar } from '../../../helpers/tar-check.js';
import { requestOutcome, startGateway, type Harness } from './gateway-harness.js';

const ROOT = 'bafybeihchr7vmgjaasntayyatmp5sv6xza57iy2h4xj7g46bpjij6yhrmy';
const ASCII = 'bafkreifkam6ns4aoolg3wedr4uzrs3kvq66p4pecirz6y2vlrngla62mxm';
const HELLO = 'bafkreifjjcie6lypi6ny7amxnfftagclbuxndqonfipmb64f2km2devei4';
const MB = 'bafybeigcisqd7m5nf3qmuvjdbakl5bdnh4ocrmacaqkpuh77qjvggmt2sa';
const L = [
  'bafkreie5noke3mb7hqxukzcy73nl23k6lxszxi5w3dtmuwz62wnvkpsscm',
  'bafkreih4ephajybraj6wnxsbwjwa77fukurtpl7oj7t7pfq545duhot7cq',
  'bafkreigu7buvm3cfunb35766dn7tmqyh2um62zcio63en2btvxuybgcpue',
  'bafkreicll3huefkc3qnrzeony7zcfo7cr3nbx64hnxrqzsixpceg332fhe',
  'bafkreifst3pqztuvj57lycamoi7z34b4emf7gawxs74nwrc2c7jncmpaqm',
];
const [T0, T1] = ['bafybeietjm63oynimmv5yyqay33nui4y4wx6u3peezwetxgiwvfmelutzu', 'bafybeiggghzz6dlue3m6nb2dttnbrygxh3lrjl5764f2m4gq7dgzdt55o4'];
const [M0, M1] = ['bafybeidh6k2vzukelqtrjsmd4p52cpmltd2ufqrdtdg6yigi73in672fwu', 'bafybeicnmple4ehlz3ostv2sbojz3zhh5q7tz5r2qkfdpqfilgggeen7xm'];
const HAMT = 'bafybeidbclfqleg2uojchspzd4bob56dqetqjsj27gy2cq3klkkgxtpn4i';
const CAR = 'application/vnd.ipld.car';

let gw: Harness;

beforeAll(async () => {
  const store = await storeFromCars(
    `${GC}path_gateway_unixfs/dir-with-files.car`,
    `${GC}trustless_gateway_car/subdir-with-two-single-block-files.car`,
    `${GC}trustless_gateway_car/subdir-with-mixed-block-files.car`,
    `${GC}trustless_gateway_car/single-layer-hamt-with-multi-block-files.car`,
    `${GC}dir_listing/fixtures.car`,
    `${GC}gateway-raw-block.car`,
  );
  gw = await startGateway(store);
});

afterAll(async () => {
  await gw.close();
});

async function carBlocks(path: string, headers: Record<string, string> = {}): Promise<string[]> {
  const res = await gw.get(path, headers);
  expect(res.status, path).toBe(200);
  return (await parseCar(res.body)).blocks;
}

describe('gateway: CAR', () => {
  it('follows order=dfs and dups from Accept, blocks hash-verified', async () => {
    const dups = await gw.get(`/ipfs/${ROOT}`, { accept: `${CAR}; version=1; order=dfs; dups=y` });
    expect(dups.status).toBe(200);
    const type = String(dups.headers['content-type']);
    expect(type).toContain(CAR);
    expect(type).toContain('order=dfs');
    expect(type).toContain('dups=y');
    expect((await parseCar(dups.body)).blocks).toEqual([ROOT, ASCII, ASCII, HELLO, MB, ...L]);
    const once = await gw.get(`/ipfs/${ROOT}`, { accept: `${CAR}; version=1; order=dfs; dups=n` });
    expect(String(once.headers['content-type'])).toContain('dups=n');
    expect((await parseCar(once.body)).blocks).toEqual([ROOT, ASCII, HELLO, MB, ...L]);
    const unk = await gw.get(`/ipfs/${ROOT}`, { accept: `${CAR}; order=unk` });
    expect(String(unk.headers['content-type'])).toContain('order=');
  });

  it('has the trustless headers on every CAR', async () => {
    for (const [path, headers] of [
      [`/ipfs/${ROOT}?format=car`, {}],
      [`/ipfs/${ROOT}`, { accept: CAR }],
    ] as const) {
      const res = await gw.get(path, headers);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['accept-ranges']).toBe('none');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename=".*\.car"$/);
      expect(res.headers.etag).toBeTruthy();
      expect(res.headers['cache-control']).toBe('public, max-age=29030400, immutable');
    }
  });

  it('lets URL parameters beat Accept parameters, and format beat Accept', async () => {
    const order = await gw.get(`/ipfs/${ROOT}?format=car&car-order=dfs`, { accept: `${CAR}; order=unk` });
    expect(String(order.headers['content-type'])).toContain('order=dfs');
    const dupsParam = await gw.get(`/ipfs/${ROOT}?format=car&car-dups=y`, { accept: `${CAR}; dups=n` });
    expect(String(dupsParam.headers['content-type'])).toContain('dups=y');
    const withAccept = await gw.get(`/ipfs/${ROOT}?format=car`, { accept: `${CAR}; version=1; order=dfs; dups=y` });
    expect((await parseCar(withAccept.body)).blocks).toHaveLength(10);
    const dir = 'bafybeifaqksygmsbnqe76kwvxoqxtkzcwssq5jkhuo65ldtqiunr3bxlra';
    const car = await gw.get(`/ipfs/${dir}?format=car`, { accept: 'application/vnd.ipld.raw' });
    expect(String(car.headers['content-type'])).toContain(CAR);
    const raw = await gw.get(`/ipfs/${dir}?format=raw`, { accept: CAR });
    expect(raw.headers['content-type']).toBe('application/vnd.ipld.raw');
    expect((await gw.get(`/ipfs/${ROOT}?format=car&car-version=2`)).status).toBe(406);
  });

  it('sends zero blocks for an identity CID', async () => {
    const res = await gw.get('/ipfs/bafkqaf3imvwgy3zaneqgc3janfxgy2lomvscay3jmqfa', { accept: `${CAR}; dups=y` });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toContain('dups=y');
    expect((await parseCar(res.body)).blocks).toEqual([]);
  });

  it('includes the path blocks and honours dag-scope', async () => {
    expect(await carBlocks(`/ipfs/${T0}/subdir/ascii.txt?format=car`)).toEqual([T0, T1, ASCII]);
    expect((await gw.get(`/ipfs/${T0}/subdir/i-do-not-exist?format=car`)).status).toBe(404);
    expect(await carBlocks(`/ipfs/${T0}/subdir?format=car&dag-scope=block`)).toEqual([T0, T1]);
    expect(await carBlocks(`/ipfs/${T0}/subdir/ascii.txt?format=car&dag-scope=block`)).toEqual([T0, T1, ASCII]);
    expect(await carBlocks(`/ipfs/${T0}?format=car&dag-scope=entity`)).toEqual([T0]);
    expect(await carBlocks(`/ipfs/${M0}/subdir/ascii.txt?format=car&dag-scope=entity`)).toEqual([M0, M1, ASCII]);
    expect(await carBlocks(`/ipfs/${M0}/subdir/multiblock.txt?format=car&dag-scope=entity`)).toEqual([M0, M1, MB, ...L]);
    expect(await carBlocks(`/ipfs/${M0}/subdir?format=car&dag-scope=all`)).toEqual([M0, M1, ASCII, HELLO, MB, ...L]);
    expect(await carBlocks(`/ipfs/${M0}/subdir/multiblock.txt`, { accept: CAR })).toEqual([M0, M1, MB, ...L]);
    expect(await carBlocks(`/ipfs/${M0}/subdir/multiblock.txt?format=car&dag-scope=entity&entity-bytes=0:*`)).toEqual([M0, M1, MB, ...L]);
    expect(await carBlocks(`/ipfs/${MB}?format=car&dag-scope=entity&entity-bytes=512:-256`)).toEqual([MB, L[2], L[3]]);
    expect(await carBlocks(`/ipfs/${MB}?format=car&dag-scope=entity&entity-bytes=0:0`)).toEqual([MB, L[0]]);
  });

  it('walks HAMT shards for paths and scopes', async () => {
    const expected = JSON.parse(await readFile(fixturePath('derived/single-layer-hamt-expected.json'), 'utf8')) as {
      child_shard_blocks_dfs_preorder: string[];
    };
    expect(await carBlocks(`/ipfs/${HAMT}/685.txt?format=car`)).toEqual([HAMT, 'bafybeifajm5xyg46n4hjxg7clq2f7vcn7eg7bn3yevylcemr6vd7mp6gta', MB, ...L]);
    expect(await carBlocks(`/ipfs/${HAMT}/1.txt?format=car&dag-scope=block`)).toEqual([
      HAMT,
      'bafybeiawjmzmi5c6v5h75nepfpx7jj5ns5t54girned3kilvakmhctxlxy',
      MB,
    ]);
    const entity = [HAMT, ...expected.child_shard_blocks_dfs_preorder];
    expect(await carBlocks(`/ipfs/${HAMT}?format=car&dag-scope=entity`)).toEqual(entity);
    expect(await carBlocks(`/ipfs/${HAMT}?format=car&dag-scope=entity&entity-bytes=0:*`)).toEqual(entity);
  });
});

describe('gateway: TAR', () => {
  const DIR = 'bafybeig6ka5mlwkl4subqhaiatalkcleo4jgnr3hqwvpmsqfca27cijp3i';
  const FILE = 'bafkreialihlqnf5uwo4byh4n3cmwlntwqzxxs2fg5vanqdi3d7tb2l5xkm';

  it('archives a file with the tar headers, by format and by Accept', async () => {
    for (const [path, headers] of [
      [`/ipfs/${FILE}?format=tar`, {}],
      [`/ipfs/${FILE}`, { accept: 'application/x-tar' }],
    ] as const) {
      const res = await gw.get(path, headers);
      expect(res.status).toBe(200);
      expect(res.headers['content-disposition']).toContain('attachment;');
      expect(res.headers.etag).toContain(`W/"${FILE}.x-tar`);
      expect(res.headers['content-type']).toContain('application/x-tar');
      const entries = parseTar(res.body);
      expect(entries.map((e) => e.name)).toEqual([FILE]);
      expect(entries[0]?.content.toString()).toBe('I am a txt file on path with utf8\n');
    }
  });

  it('archives a tree with UTF-8 names and a UTF-8 filename', async () => {
    const res = await gw.get(`/ipfs/${DIR}?format=tar`);
    const entry = parseTar(res.body).find((e) => e.name === `${DIR}/ą/ę/file-źł.txt`);
    expect(entry?.content.toString()).toBe('I am a txt file on path with utf8\n');
    const named = await gw.get(`/ipfs/${DIR}?filename=${encodeURIComponent('testтест.tar')}&format=tar`);
    expect(named.headers['content-disposition']).toContain(`attachment; filename="test____.tar"; filename*=UTF-8''test%D1%82%D0%B5%D1%81%D1%82.tar`);
  });
});

describe('gateway: raw blocks', () => {
  it('serves a block with attachment, nosniff and caching headers', async () => {
    const path = '/ipfs/bafybeie72edlprgtlwwctzljf6gkn2wnlrddqjbkxo3jomh4n7omwblxly/dir/ascii.txt';
    const res = await gw.get(path, { accept: 'application/vnd.ipld.raw' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.ipld.raw');
    expect(res.headers['content-length']).toBe('31');
    expect(res.headers['content-disposition']).toContain('attachment;');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-ipfs-path']).toBe(path);
    expect(String(res.headers['x-ipfs-roots'])).toContain('bafybeie72edlprgtlwwctzljf6gkn2wnlrddqjbkxo3jomh4n7omwblxly');
    expect(res.headers.etag).toBeTruthy();
    expect(res.text).toBe('hello application/vnd.ipld.raw\n');
    const named = await gw.get(`${path}?filename=foobar.bin`, { accept: 'application/vnd.ipld.raw' });
    expect(named.headers['content-disposition']).toBe('attachment; filename="foobar.bin"');
  });
});

describe('gateway: TAR of directories whose entry names hold ".." (gateway-conformance path_gateway_tar)', () => {
  let relative: Harness;
  const logged: string[] = [];
  let inside: string;
  let outside: string;
  let escape: string;

  beforeAll(async () => {
    const store = new MemoryBlockstore();
    const dags = [await insideRootDag(), await outsideRootDag(), await deepEscapeDag()];
    for (const dag of dags) for (const block of dag.blocks) await store.put(block.cid, block.bytes);
    [inside, outside, escape] = dags.map((dag) => dag.root.toString()) as [string, string, string];
    relative = await startGateway(store, { logger: createLogger('debug', (line) => logged.push(line)) });
  });

  afterAll(async () => {
    await relative.close();
  });

  it('inside-root.car: foobar/directory/../file lands at <cid>/foobar/file, a whole archive', async () => {
    expect(inside).toBe(INSIDE_ROOT);
    const res = await requestOutcome(relative.port, `/ipfs/${inside}?format=tar`);
    expect(res.status).toBe(200);
    expect(res.complete).toBe(true);
    const entries = parseTar(res.body);
    expect(entries.map((e) => e.name)).toEqual([`${inside}/`, `${inside}/foobar/`, `${inside}/foobar/directory/`, `${inside}/foobar/file`]);
    expect(entries.at(-1)?.content.toString()).toBe(FILE_TEXT);
    expect(logged).toEqual([]);
  });

  it('outside-root.car: ../foo in the top directory is refused before the first byte, 406 with the envelope', async () => {
    expect(outside).toBe(OUTSIDE_ROOT);
    for (const method of ['GET', 'HEAD']) {
      const res = await relative.get(`/ipfs/${outside}?format=tar`, {}, method);
      expect(res.status, method).toBe(406);
      for (const name of ['etag', 'cache-control', 'content-disposition']) expect(res.headers[name], name).toBeUndefined();
      if (method === 'GET') {
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        const body = JSON.parse(res.text) as { code: number; msg: string };
        expect(body.code).toBe(406);
        expect(body.msg).toContain(`tar cannot hold entry "../foo" of ${outside}`);
        expect(body.msg).toContain('relative UnixFS paths outside the root are not allowed');
      }
    }
    // The same DAG as a CAR is fine: nothing in it is a path on anyone's disk.
    expect((await relative.get(`/ipfs/${outside}?format=car`)).status).toBe(200);
    expect(logged).toEqual([]);
  });

  it('an entry one level down that leaves the root cuts the archive short after its headers, and is logged without the query', async () => {
    logged.length = 0;
    const res = await requestOutcome(relative.port, `/ipfs/${escape}?format=tar&filename=a.tar&sargs=SECRET-ARGS`);
    expect(res.status).toBe(200);
    expect(res.complete).toBe(false);
    // What came before the bad entry arrived; no end-of-archive blocks follow it.
    expect(parseTar(res.body).map((e) => e.name)).toEqual([`${escape}/`, `${escape}/ok.txt`]);
    expect(logged).toHaveLength(1);
    const line = logged[0] ?? '';
    expect(line).toContain(' warn gateway response cut short after its headers were sent ');
    const fields = JSON.parse(line.slice(line.indexOf('{'))) as { error: { message: string } } & Record<string, unknown>;
    expect(fields).toMatchObject({ method: 'GET', path: `/ipfs/${escape}`, status: 200, error: { name: 'NotAcceptableError' } });
    expect(fields.error.message).toContain('tar cannot hold entry "../../escape"');
    expect(line).not.toMatch(/SECRET|sargs|filename/);
  });
});
