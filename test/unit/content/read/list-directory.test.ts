import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CID } from 'multiformats/cid';
import { inspectNode } from '../../../../main/content/read/inspect-node.js';
import { listDirectory } from '../../../../main/content/read/list-directory.js';
import { GC, fixturePath, storeFromCars } from './fixture-store.js';
import { collect } from '../../../helpers/collect.js';

describe('listDirectory', () => {
  it('lists a plain directory in link order with Tsize', async () => {
    const store = await storeFromCars(`${GC}path_gateway_unixfs/dir-with-files.car`);
    const info = await inspectNode(store, CID.parse('bafybeihchr7vmgjaasntayyatmp5sv6xza57iy2h4xj7g46bpjij6yhrmy'));
    const entries = await collect(listDirectory(store, info));
    expect(entries.map((e) => e.name)).toEqual(['ascii-copy.txt', 'ascii.txt', 'hello.txt', 'multiblock.txt']);
    expect(entries[1]?.cid.toString()).toBe('bafkreifkam6ns4aoolg3wedr4uzrs3kvq66p4pecirz6y2vlrngla62mxm');
    expect(entries[1]?.size).toBe(31);
  });

  it('lists all 1000 entries of a two-level HAMT', async () => {
    const store = await storeFromCars(`${GC}trustless_gateway_car/single-layer-hamt-with-multi-block-files.car`);
    const info = await inspectNode(store, CID.parse('bafybeidbclfqleg2uojchspzd4bob56dqetqjsj27gy2cq3klkkgxtpn4i'));
    expect(info.kind).toBe('hamt-directory');
    const names = (await collect(listDirectory(store, info))).map((e) => e.name);
    expect(names).toHaveLength(1000);
    expect(new Set(names)).toEqual(new Set(Array.from({ length: 1000 }, (_, i) => `${i + 1}.txt`)));
  });

  it('lists the Kubo 10,100-entry HAMT although no entry block is held', async () => {
    const store = await storeFromCars('kubo/test/cli/fixtures/TestGatewayHAMTDirectory.car');
    const expected = JSON.parse(await readFile(fixturePath('derived/kubo-hamt-10k-expected.json'), 'utf8')) as {
      hamt_dir: string;
      first_10_entries_in_link_order: Array<{ name: string; cid: string; tsize: number }>;
    };
    const info = await inspectNode(store, CID.parse(expected.hamt_dir));
    const entries = await collect(listDirectory(store, info));
    expect(entries).toHaveLength(10100);
    expect(entries.slice(0, 10).map((e) => ({ name: e.name, cid: e.cid.toString(), tsize: e.size }))).toEqual(expected.first_10_entries_in_link_order);
    expect(await store.has(entries[0]!.cid)).toBe(false);
  });
});
