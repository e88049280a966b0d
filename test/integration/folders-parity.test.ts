import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { importOk, operateOk, pinAdd, pinnedFile, referenceDirectory, text, unixfsType } from './folders-helpers.js';
import { EMPTY_DIR_V1, gatewayGet, type Key } from './uploads-helpers.js';

const UNIXFS_DIRECTORY = 1;
const UNIXFS_HAMT = 5;

/**
 * The directories folder operations build are the ones ipfs-unixfs-importer 17 builds for the same
 * entries (CIDv1, raw leaves, 256 KiB threshold, files wrapped in a directory), read back through the
 * gateway: plain up to the threshold, a HAMT above it, plain again when it shrinks, and at 10,000 entries.
 */
describe('folder operation results equal the importer and read through the gateway', () => {
  let server: TestServer;
  let admin: Key;
  const pool = ['one\n', 'two two\n', 'three three three\n', 'four\n'].map(text);
  const poolCids: string[] = [];
  const fileOf = (i: number) => i % pool.length;

  /**
   * Names of 92 UTF-8 bytes: with a 36-byte CIDv1 raw-leaf CID every entry adds 128 bytes to the
   * importer's links-bytes estimate, so 2,048 entries are exactly 262,144 (plain: the rule is "strictly
   * above") and 2,049 cross it.
   */
  const longName = (i: number) => `entry-${String(i).padStart(6, '0')}-`.padEnd(92, 'x');

  function files(names: ReadonlyArray<readonly [string, number]>): Map<string, Uint8Array> {
    return new Map(names.map(([name, file]) => [name, pool[file] as Uint8Array]));
  }

  async function expectReadable(root: string, name: string, file: number): Promise<void> {
    const response = await gatewayGet(server, admin, `/ipfs/${root}/${encodeURIComponent(name)}`);
    expect(response.status, name).toBe(200);
    expect(response.bytes.equals(Buffer.from(pool[file] as Uint8Array)), name).toBe(true);
  }

  beforeAll(async () => {
    server = await startTestServer();
    admin = server.owner;
    for (const bytes of pool) poolCids.push(await pinnedFile(server, admin, bytes));
    expect(poolCids.every((cid) => cid.startsWith('bafkrei'))).toBe(true);
    await pinAdd(server, admin, EMPTY_DIR_V1);
    await importOk(server, admin, EMPTY_DIR_V1);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('stays plain at 2,047 and 2,048 entries, turns HAMT at 2,049, and back to plain when it shrinks', async () => {
    const entries = Array.from({ length: 2_049 }, (_, i) => [longName(i), fileOf(i)] as const);
    const add = (from: number, to: number) => entries.slice(from, to).map(([name, file]): [string, string] => [name, poolCids[file] as string]);

    const at2047 = await operateOk(server, admin, { cid: EMPTY_DIR_V1, add: add(0, 2_047) });
    expect(at2047).toBe(await referenceDirectory(files(entries.slice(0, 2_047))));
    expect(await unixfsType(server, admin, at2047)).toBe(UNIXFS_DIRECTORY);

    const at2048 = await operateOk(server, admin, { cid: at2047, add: add(2_047, 2_048) });
    expect(at2048).toBe(await referenceDirectory(files(entries.slice(0, 2_048))));
    expect(await unixfsType(server, admin, at2048)).toBe(UNIXFS_DIRECTORY);

    const at2049 = await operateOk(server, admin, { cid: at2048, add: add(2_048, 2_049), pin_new: true });
    expect(at2049).toBe(await referenceDirectory(files(entries)));
    expect(await unixfsType(server, admin, at2049)).toBe(UNIXFS_HAMT);
    await expectReadable(at2049, longName(0), fileOf(0));
    await expectReadable(at2049, longName(2_048), fileOf(2_048));

    // Removing any one entry (not only the last added) brings it back under the threshold.
    const shrunk = await operateOk(server, admin, { cid: at2049, remove: [longName(7)] });
    expect(shrunk).toBe(await referenceDirectory(files(entries.filter((_, i) => i !== 7))));
    expect(await unixfsType(server, admin, shrunk)).toBe(UNIXFS_DIRECTORY);
    expect((await gatewayGet(server, admin, `/ipfs/${shrunk}/${longName(7)}`)).status).toBe(404);
    await expectReadable(shrunk, longName(2_048), fileOf(2_048));

    // Same count, one name 7 bytes longer: 262,151 bytes, over the threshold again from the plain side.
    const longer = `${longName(3)}-longer`;
    const regrown = await operateOk(server, admin, { cid: shrunk, add: [[longer, poolCids[1] as string]], remove: [longName(3)] });
    const expected = entries.filter((_, i) => i !== 7 && i !== 3).concat([[longer, 1]]);
    expect(regrown).toBe(await referenceDirectory(files(expected)));
    expect(await unixfsType(server, admin, regrown)).toBe(UNIXFS_HAMT);
    await expectReadable(regrown, longer, 1);
  });

  it('builds 10,000 entries in one call as the importer does, lists them, and edits them further', async () => {
    const entries = Array.from({ length: 10_000 }, (_, i) => [`file-${i}.txt`, fileOf(i)] as const);
    const root = await operateOk(server, admin, {
      cid: EMPTY_DIR_V1,
      add: entries.map(([name, file]): [string, string] => [name, poolCids[file] as string]),
      pin_new: true,
    });
    expect(root).toBe(await referenceDirectory(files(entries)));
    expect(await unixfsType(server, admin, root)).toBe(UNIXFS_HAMT);
    for (const i of [0, 4_321, 9_999]) await expectReadable(root, `file-${i}.txt`, fileOf(i));

    const listing = await gatewayGet(server, admin, `/ipfs/${root}/`);
    expect(listing.status).toBe(200);
    const html = listing.bytes.toString();
    for (const i of [1, 5_000, 9_998]) expect(html).toContain(`file-${i}.txt`);

    const next = await operateOk(server, admin, {
      cid: root,
      add: [
        ['file-0.txt', poolCids[3] as string],
        ['file-10000.txt', poolCids[0] as string],
      ],
      remove: ['file-1.txt', 'file-2.txt'],
    });
    const after = new Map(files(entries));
    after.set('file-0.txt', pool[3] as Uint8Array);
    after.set('file-10000.txt', pool[0] as Uint8Array);
    after.delete('file-1.txt');
    after.delete('file-2.txt');
    expect(next).toBe(await referenceDirectory(after));
    await expectReadable(next, 'file-0.txt', 3);
    expect((await gatewayGet(server, admin, `/ipfs/${next}/file-1.txt`)).status).toBe(404);
  });
});
