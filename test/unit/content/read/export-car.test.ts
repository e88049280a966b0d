import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CID } from 'multiformats/cid';
import { BadInputError, NotFoundError } from '../../../../main/base/errors.js';
import { entitySpan, exportCar } from '../../../../main/content/read/export-car.js';
import { resolvePath } from '../../../../main/content/read/resolve-path.js';
import { parseCar } from './car-check.js';
import { GC, fixturePath, storeFromCars } from './fixture-store.js';
import { collectBytes } from '../../../helpers/collect.js';

const ROOT = 'bafybeihchr7vmgjaasntayyatmp5sv6xza57iy2h4xj7g46bpjij6yhrmy';
const ASCII = 'bafkreifkam6ns4aoolg3wedr4uzrs3kvq66p4pecirz6y2vlrngla62mxm';
const HELLO = 'bafkreifjjcie6lypi6ny7amxnfftagclbuxndqonfipmb64f2km2devei4';
const MB = 'bafybeigcisqd7m5nf3qmuvjdbakl5bdnh4ocrmacaqkpuh77qjvggmt2sa';
const [L1, L2, L3, L4, L5] = [
  'bafkreie5noke3mb7hqxukzcy73nl23k6lxszxi5w3dtmuwz62wnvkpsscm',
  'bafkreih4ephajybraj6wnxsbwjwa77fukurtpl7oj7t7pfq545duhot7cq',
  'bafkreigu7buvm3cfunb35766dn7tmqyh2um62zcio63en2btvxuybgcpue',
  'bafkreicll3huefkc3qnrzeony7zcfo7cr3nbx64hnxrqzsixpceg332fhe',
  'bafkreifst3pqztuvj57lycamoi7z34b4emf7gawxs74nwrc2c7jncmpaqm',
];

describe('exportCar', () => {
  it('writes DFS order, with and without duplicates, every block hash-verified', async () => {
    const store = await storeFromCars(`${GC}path_gateway_unixfs/dir-with-files.car`);
    const dups = await parseCar(await collectBytes(exportCar(store, CID.parse(ROOT), { dups: true })));
    expect(dups.roots).toEqual([ROOT]);
    expect(dups.blocks).toEqual([ROOT, ASCII, ASCII, HELLO, MB, L1, L2, L3, L4, L5]);
    const once = await parseCar(await collectBytes(exportCar(store, CID.parse(ROOT))));
    expect(once.blocks).toEqual([ROOT, ASCII, HELLO, MB, L1, L2, L3, L4, L5]);
  });

  it('starts with the path blocks, through HAMT shards', async () => {
    const store = await storeFromCars(`${GC}trustless_gateway_car/single-layer-hamt-with-multi-block-files.car`);
    const hamt = 'bafybeidbclfqleg2uojchspzd4bob56dqetqjsj27gy2cq3klkkgxtpn4i';
    const path = await resolvePath(store, CID.parse(hamt), ['685.txt']);
    const car = await parseCar(await collectBytes(exportCar(store, path.cid, { pathBlocks: path.visited, roots: [CID.parse(hamt)] })));
    expect(car.roots).toEqual([hamt]);
    expect(car.blocks).toEqual([hamt, 'bafybeifajm5xyg46n4hjxg7clq2f7vcn7eg7bn3yevylcemr6vd7mp6gta', MB, L1, L2, L3, L4, L5]);
    const one = await resolvePath(store, CID.parse(hamt), ['1.txt']);
    const block = await parseCar(await collectBytes(exportCar(store, one.cid, { pathBlocks: one.visited, scope: 'block' })));
    expect(block.blocks).toEqual([hamt, 'bafybeiawjmzmi5c6v5h75nepfpx7jj5ns5t54girned3kilvakmhctxlxy', MB]);
  });

  it('dag-scope=entity on a HAMT gives its shards in DFS pre-order and no entries', async () => {
    const store = await storeFromCars(`${GC}trustless_gateway_car/single-layer-hamt-with-multi-block-files.car`);
    const expected = JSON.parse(await readFile(fixturePath('derived/single-layer-hamt-expected.json'), 'utf8')) as {
      hamt_root: string;
      child_shard_blocks_dfs_preorder: string[];
    };
    const car = await parseCar(await collectBytes(exportCar(store, CID.parse(expected.hamt_root), { scope: 'entity' })));
    expect(car.blocks).toEqual([expected.hamt_root, ...expected.child_shard_blocks_dfs_preorder]);
  });

  it('entity-bytes selects the leaves that cover the range', async () => {
    const store = await storeFromCars(`${GC}trustless_gateway_car/subdir-with-mixed-block-files.car`);
    const cases: Array<[number, number | null, string[]]> = [
      [512, null, [MB, L3, L4, L5]],
      [512, 1023, [MB, L3, L4]],
      [512, -256, [MB, L3, L4]],
      [-5, null, [MB, L4, L5]],
      [-9999, null, [MB, L1, L2, L3, L4, L5]],
      [-9999, -3, [MB, L1, L2, L3, L4]],
      [0, 0, [MB, L1]],
    ];
    for (const [from, to, blocks] of cases) {
      const car = await parseCar(await collectBytes(exportCar(store, CID.parse(MB), { scope: 'entity', entityBytes: { from, to } })));
      expect(car.blocks, `${from}:${to ?? '*'}`).toEqual(blocks);
    }
    expect(entitySpan({ from: 0, to: null }, 1026)).toEqual({ start: 0, end: 1026 });
  });

  it('follows dag-cbor and dag-json links', async () => {
    const store = await storeFromCars(`${GC}path_gateway_dag/dag-cbor-traversal.car`, `${GC}path_gateway_dag/dag-json-traversal.car`);
    const cbor = await parseCar(await collectBytes(exportCar(store, CID.parse('bafyreibs4utpgbn7uqegmd2goqz4bkyflre2ek2iwv743fhvylwi4zeeim'))));
    expect(cbor.blocks).toEqual([
      'bafyreibs4utpgbn7uqegmd2goqz4bkyflre2ek2iwv743fhvylwi4zeeim',
      'bafyreig5alecq2l2akgajxywgnv22kuxh6xcagsnelepylqovt4t5jxt6u',
      'bafyreiaefvpp22slf5bzd4lqgzwbztqahwlldtqkpgmlhv7mh23pudle7y',
    ]);
    const json = await parseCar(await collectBytes(exportCar(store, CID.parse('baguqeeram5ujjqrwheyaty3w5gdsmoz6vittchvhk723jjqxk7hakxkd47xq'))));
    expect(json.blocks).toHaveLength(3);
  });

  it('never emits identity blocks; fails on missing blocks and bad options', async () => {
    const store = await storeFromCars(`${GC}path_gateway_unixfs/dir-with-files.car`);
    const inline = await parseCar(await collectBytes(exportCar(store, CID.parse('bafkqaf3imvwgy3zaneqgc3janfxgy2lomvscay3jmqfa'))));
    expect(inline.blocks).toEqual([]);
    await expect(collectBytes(exportCar(store, CID.parse('QmYzfKSE55XCjD1MW128RfciAf2DViABhEiXfgVFMabSjN')))).rejects.toBeInstanceOf(NotFoundError);
    await expect(collectBytes(exportCar(store, CID.parse(MB), { entityBytes: { from: 0, to: null } }))).rejects.toBeInstanceOf(BadInputError);
  });
});
