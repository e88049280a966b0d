import { describe, expect, it } from 'vitest';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { EMPTY_DIRECTORY_CID, directoryStats, editDirectory, lookupEntry } from '../../../../main/content/directory/index.js';
import { loadCar } from './directory-helpers.js';
import { listHamtEntries } from './shard-lengths.js';

const SMALL_HAMT = CID.parse('bafybeidbclfqleg2uojchspzd4bob56dqetqjsj27gy2cq3klkkgxtpn4i');
const SMALL_HAMT_CAR = 'gateway-conformance/fixtures/trustless_gateway_car/single-layer-hamt-with-multi-block-files.car';
const KUBO_HAMT = CID.parse('bafybeiggvykl7skb2ndlmacg2k5modvudocffxjesexlod2pfvg5yhwrqm');
const KUBO_HAMT_CAR = 'kubo/test/cli/fixtures/TestGatewayHAMTDirectory.car';
const FORCE_HAMT = { shardSplitThresholdBytes: 0 };

describe('the 1,000-entry HAMT fixture (single-layer-hamt-with-multi-block-files.car)', () => {
  it('is counted and rebuilt byte for byte from its entries (same hash, bitfield and layout as Go)', async () => {
    const blockstore = await loadCar(SMALL_HAMT_CAR);
    const stats = await directoryStats(blockstore, SMALL_HAMT);
    expect(stats).toMatchObject({ kind: 'hamt', entries: 1000 });
    const entries = await listHamtEntries(blockstore, SMALL_HAMT);
    const rebuilt = await editDirectory(blockstore, EMPTY_DIRECTORY_CID, { add: entries }, FORCE_HAMT);
    expect(rebuilt.cid.toString()).toBe(SMALL_HAMT.toString());
  });

  it('finds a name by reading only the shards on its hash path', async () => {
    const blockstore = await loadCar(SMALL_HAMT_CAR);
    const entry = await lookupEntry(blockstore, SMALL_HAMT, '402.txt');
    expect(entry?.cid.toString()).toBe('bafybeigcisqd7m5nf3qmuvjdbakl5bdnh4ocrmacaqkpuh77qjvggmt2sa');
    expect(blockstore.gets).toBe(3); // root, shard 21, shard B6 (MANIFEST)
    expect(await lookupEntry(blockstore, SMALL_HAMT, 'nope.txt')).toBeUndefined();
  });

  it('accepts an edit kept as a HAMT: only the path shards are read and written', async () => {
    const blockstore = await loadCar(SMALL_HAMT_CAR);
    const stats = await directoryStats(blockstore, SMALL_HAMT);
    const file = CID.parse('bafybeigcisqd7m5nf3qmuvjdbakl5bdnh4ocrmacaqkpuh77qjvggmt2sa');
    blockstore.resetCounts();
    const edited = await editDirectory(blockstore, SMALL_HAMT, { add: [['1001.txt', file]], remove: ['1.txt'] }, { ...FORCE_HAMT, statsOf: () => stats });
    expect(blockstore.gets).toBeLessThanOrEqual(6);
    expect(blockstore.puts).toBeLessThanOrEqual(5);
    expect(edited.stats.entries).toBe(1000);
    const entries = (await listHamtEntries(blockstore, SMALL_HAMT)).filter(([name]) => name !== '1.txt');
    const fileTsize = entries[0]?.[2] as number;
    const reference = await editDirectory(blockstore, EMPTY_DIRECTORY_CID, { add: [...entries, ['1001.txt', file, fileTsize]] }, FORCE_HAMT);
    expect(edited.cid.toString()).toBe(reference.cid.toString());
    expect(await lookupEntry(blockstore, edited.cid, '1.txt')).toBeUndefined();
    expect((await lookupEntry(blockstore, edited.cid, '1001.txt'))?.tsize).toBe(fileTsize);
  });

  it('becomes a plain directory under the default threshold, as the importer would build it', async () => {
    const blockstore = await loadCar(SMALL_HAMT_CAR);
    const edited = await editDirectory(blockstore, SMALL_HAMT, { remove: ['1.txt'] });
    expect(edited.stats).toMatchObject({ kind: 'plain', entries: 999 });
    const entries = (await listHamtEntries(blockstore, SMALL_HAMT)).filter(([name]) => name !== '1.txt');
    const reference = await editDirectory(blockstore, EMPTY_DIRECTORY_CID, { add: entries });
    expect(edited.cid.toString()).toBe(reference.cid.toString());
  });
});

describe('the 10,100-entry Kubo HAMT fixture (TestGatewayHAMTDirectory.car, no child blocks)', () => {
  it('is counted without child blocks and rebuilt byte for byte at the default threshold', async () => {
    const blockstore = await loadCar(KUBO_HAMT_CAR);
    const stats = await directoryStats(blockstore, KUBO_HAMT);
    expect(stats).toMatchObject({ kind: 'hamt', entries: 10_100 });
    const entries = await listHamtEntries(blockstore, KUBO_HAMT);
    const rebuilt = await editDirectory(blockstore, EMPTY_DIRECTORY_CID, { add: [...entries].reverse() });
    expect(rebuilt.cid.toString()).toBe(KUBO_HAMT.toString());
    expect(rebuilt.stats).toEqual(stats);
  });

  it('accepts an edit that reads only the path shards and the one added child', async () => {
    const blockstore = await loadCar(KUBO_HAMT_CAR);
    const stats = await directoryStats(blockstore, KUBO_HAMT);
    const bytes = new TextEncoder().encode('a new picture');
    const added = CID.createV1(raw.code, await sha256.digest(bytes));
    await blockstore.put(added, bytes);
    blockstore.resetCounts();
    const edited = await editDirectory(
      blockstore,
      KUBO_HAMT,
      {
        add: [
          ['new.png', added],
          ['6993.png', added],
        ],
        remove: ['1.png', '5000.png'],
      },
      { statsOf: () => stats },
    );
    expect(blockstore.gets).toBeLessThanOrEqual(9);
    expect(blockstore.puts).toBeLessThanOrEqual(8);
    expect(edited.stats).toMatchObject({ kind: 'hamt', entries: 10_099 });
    const entries = (await listHamtEntries(blockstore, KUBO_HAMT)).filter(([name]) => !['1.png', '5000.png', '6993.png'].includes(name));
    const reference = await editDirectory(blockstore, EMPTY_DIRECTORY_CID, {
      add: [...entries, ['new.png', added, bytes.length], ['6993.png', added, bytes.length]],
    });
    expect(edited.cid.toString()).toBe(reference.cid.toString());
    expect(edited.stats).toEqual(reference.stats);
    expect((await lookupEntry(blockstore, edited.cid, '6993.png'))?.cid.toString()).toBe(added.toString());
  });
});
