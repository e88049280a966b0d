import { CarReader } from '@ipld/car/reader';
import { MemoryBlockstore } from 'blockstore-core/memory';
import { CID } from 'multiformats/cid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editDirectory, EMPTY_DIRECTORY_CID } from '../../main/content/directory/index.js';
import { expectFailureEnvelope } from '../helpers/error-envelope.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import {
  expectNotOperable,
  expectRejected,
  folderImport,
  folderOperation,
  HAMT_1000_CAR,
  HAMT_1000_FILE,
  HAMT_1000_ROOT,
  importOk,
  KUBO_HAMT_CAR,
  KUBO_HAMT_ROOT,
  operateOk,
  pinAdd,
  pinnedFile,
  pinRecord,
  readFixture,
  snapshot,
  text,
  unixfsType,
} from './folders-helpers.js';
import { until } from '../helpers/until.js';
import { carImport, carV1, EMPTY_DIR_V0, EMPTY_DIR_V1, gatewayGet, randomData, uploadCid, type Block, type Key } from './uploads-helpers.js';

/**
 * PUT /api/v0/folder/{cid} over HTTP: "a CID already pinned by the service" (by the caller), a UnixFS
 * directory, plain or HAMT; the fixtures' HAMTs import and accept operations; 423 while it runs.
 *
 * A `pinning` root (pinned, blocks still missing) is accepted when the directory itself (its root and
 * every HAMT shard) is held: the folder needs only those, never the entries' own blocks. A missing shard
 * answers 404 naming the block and leaves nothing behind, so the same call succeeds once it arrives.
 */
describe('folder import', () => {
  let server: TestServer;
  let admin: Key;

  beforeAll(async () => {
    server = await startTestServer();
    admin = server.owner;
  });
  afterAll(async () => {
    await server.stop();
  });

  it('needs the CID pinned by the caller: 404 otherwise, and nothing is recorded', async () => {
    const before = await snapshot(server, admin);
    // Held (always available) but not pinned.
    await expectRejected(server, admin, await folderImport(server, admin, EMPTY_DIR_V1), 404, /cid: .* is not pinned by this account/, before, []);
    await expectNotOperable(server, admin, EMPTY_DIR_V1);
    // Never seen at all.
    const unknown = 'bafybeihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku';
    await expectRejected(server, admin, await folderImport(server, admin, unknown), 404, /is not pinned/, before, [unknown]);

    await pinAdd(server, admin, EMPTY_DIR_V1);
    await importOk(server, admin, EMPTY_DIR_V1);
    // A second import of the same root is a no-op.
    const again = await snapshot(server, admin);
    await importOk(server, admin, EMPTY_DIR_V1);
    expect(await snapshot(server, admin)).toEqual(again);
  });

  it('treats the CIDv0 and CIDv1 forms of a pinned root as one folder', async () => {
    await pinAdd(server, admin, EMPTY_DIR_V0);
    await importOk(server, admin, EMPTY_DIR_V0);
    const file = await pinnedFile(server, admin, text('v0 root\n'));
    const root = await operateOk(server, admin, { cid: EMPTY_DIR_V0, add: [['v0.txt', file]] });
    expect(root.startsWith('bafy')).toBe(true);
    expect(await operateOk(server, admin, { cid: EMPTY_DIR_V1, add: [['v0.txt', file]] })).toBe(root);
  });

  it('rejects a CID that is not a UnixFS directory with 400: raw file, chunked file, dag-cbor', async () => {
    const rawFile = await pinnedFile(server, admin, text('a single raw leaf\n'));
    const chunked = await pinnedFile(server, admin, randomData(1024 * 1024 + 10));
    expect(await unixfsType(server, admin, chunked)).toBe(2);
    const cbor = await import('@ipld/dag-cbor');
    const { sha256 } = await import('multiformats/hashes/sha2');
    const node = cbor.encode({ hello: 'folder' });
    const cborCid = CID.createV1(cbor.code, await sha256.digest(node));
    expect((await carImport(server, admin, await carV1([cborCid], [{ cid: cborCid, bytes: node }]))).status).toBe(200);
    expect((await pinRecord(server, admin, cborCid.toString()))?.status).toBe('pinned');

    const before = await snapshot(server, admin);
    for (const cid of [rawFile, chunked, cborCid.toString()]) {
      await expectRejected(server, admin, await folderImport(server, admin, cid), 400, /cid: .* is not a UnixFS directory/, before);
      await expectNotOperable(server, admin, cid);
    }
    await expectRejected(server, admin, await folderImport(server, admin, 'not-a-cid'), 400, /cid/, before);
  });

  it('imports the 1,000-entry HAMT fixture and operates on it, turning plain below the threshold as the importer would', async () => {
    const car = await readFixture(HAMT_1000_CAR);
    expect((await carImport(server, admin, car)).status).toBe(200);
    expect((await pinRecord(server, admin, HAMT_1000_ROOT))?.status).toBe('pinned');
    await importOk(server, admin, HAMT_1000_ROOT);

    const added = await pinnedFile(server, admin, text('new in the HAMT\n'));
    const edited = await operateOk(server, admin, { cid: HAMT_1000_ROOT, add: [['new.txt', added]], remove: ['402.txt', '685.txt'], pin_new: true });
    // 999 short names (~44 bytes each with the CID) are far below 256 KiB: the importer builds a plain
    // directory for them (the fixture is a HAMT only because it was made with a tiny threshold).
    expect(await unixfsType(server, admin, edited)).toBe(1);
    expect((await gatewayGet(server, admin, `/ipfs/${edited}/new.txt`)).bytes.toString()).toBe('new in the HAMT\n');
    expect((await gatewayGet(server, admin, `/ipfs/${edited}/402.txt`)).status).toBe(404);
    const kept = await gatewayGet(server, admin, `/ipfs/${edited}/111.txt`);
    expect(kept.status).toBe(200);
    expect(kept.bytes.length).toBe(1026);

    // The same entries built from the empty directory in one call give the same root.
    await pinAdd(server, admin, HAMT_1000_FILE);
    const names = Array.from({ length: 1000 }, (_, i) => `${i + 1}.txt`).filter((name) => name !== '402.txt' && name !== '685.txt');
    const fresh = await operateOk(server, admin, {
      cid: EMPTY_DIR_V1,
      add: [...names.map((name): [string, string] => [name, HAMT_1000_FILE]), ['new.txt', added]],
    });
    expect(fresh).toBe(edited);
  });

  it('imports the 10,100-entry Kubo HAMT while its pin is still pinning (no file blocks), once its shards are all held', async () => {
    const car = await readFixture(KUBO_HAMT_CAR);
    const rootCid = CID.parse(KUBO_HAMT_ROOT);
    const reader = await CarReader.fromBytes(car);
    let rootBlock: Block | undefined;
    for await (const block of reader.blocks()) {
      if (Buffer.from(block.cid.multihash.bytes).equals(Buffer.from(rootCid.multihash.bytes))) rootBlock = { cid: rootCid, bytes: block.bytes };
    }
    expect(rootBlock).toBeDefined();

    // Only the root shard: pinning, and the import cannot read the shards below it.
    expect((await carImport(server, admin, await carV1([rootCid], [rootBlock as Block]), { pinRoots: false })).status).toBe(200);
    await pinAdd(server, admin, KUBO_HAMT_ROOT);
    expect((await pinRecord(server, admin, KUBO_HAMT_ROOT))?.status).toBe('pinning');
    const before = await snapshot(server, admin);
    await expectRejected(server, admin, await folderImport(server, admin, KUBO_HAMT_ROOT), 404, new RegExp(`${KUBO_HAMT_ROOT}: block .* is not held`), before);
    await expectNotOperable(server, admin, KUBO_HAMT_ROOT);

    // Every shard arrives (the files never do): still pinning, and now the import succeeds.
    expect((await carImport(server, admin, car, { pinRoots: false })).status).toBe(200);
    expect((await pinRecord(server, admin, KUBO_HAMT_ROOT))?.status).toBe('pinning');
    await importOk(server, admin, KUBO_HAMT_ROOT);

    const added = await pinnedFile(server, admin, text('beside 10,100 pictures\n'));
    const edited = await operateOk(server, admin, { cid: KUBO_HAMT_ROOT, add: [['notes.txt', added]], remove: ['1.png', '10100.png'] });
    expect((await gatewayGet(server, admin, `/ipfs/${edited}/notes.txt`)).bytes.toString()).toBe('beside 10,100 pictures\n');
    const listing = await gatewayGet(server, admin, `/ipfs/${edited}/`);
    expect(listing.status).toBe(200);
    expect(listing.bytes.toString()).toContain('5050.png');
    expect(listing.bytes.toString()).not.toContain('>10100.png<');

    // Adding the new name and taking it away again gives Kubo's root back.
    const plusOne = await operateOk(server, admin, { cid: KUBO_HAMT_ROOT, add: [['notes.txt', added]] });
    expect(await operateOk(server, admin, { cid: plusOne, remove: ['notes.txt'] })).toBe(KUBO_HAMT_ROOT);
  });

  it('answers 423 to an operation on a root whose import is still running, then accepts it', async () => {
    // A HAMT big enough that walking it takes a while: 100,000 names over one pinned file, ~30k shards.
    const file = await pinnedFile(server, admin, text('one file behind many names\n'));
    const fileCid = CID.parse(file);
    const local = new MemoryBlockstore();
    const names = Array.from({ length: 100_000 }, (_, i) => `n${i}`);
    const built = await editDirectory(local, EMPTY_DIRECTORY_CID, { add: names.map((name) => [name, fileCid, 27] as const) });
    const blocks: Block[] = [];
    for await (const { cid, bytes } of local.getAll()) {
      const chunks: Uint8Array[] = [];
      for await (const chunk of bytes instanceof Uint8Array ? [bytes] : bytes) chunks.push(chunk);
      blocks.push({ cid, bytes: new Uint8Array(Buffer.concat(chunks)) });
    }
    const car = await carV1([built.cid], blocks);
    expect((await carImport(server, admin, car)).status).toBe(200);
    const root = built.cid.toString();
    expect((await pinRecord(server, admin, root))?.status).toBe('pinned');

    const before = await snapshot(server, admin);
    const importing = folderImport(server, admin, root);
    // Poll until the import is seen: before it starts the root is unknown (404), while it runs: 423.
    // The probe removes a name that does not exist, so a probe that came too late fails (404 naming the
    // entry) instead of changing anything.
    const locked = await until(
      'the folder import to start',
      async () => {
        const response = await folderOperation(server, admin, { cid: root, remove: ['no-such-entry'], pin_new: true });
        return response.status === 404 && /has not been imported/.test(response.text) ? undefined : response;
      },
      60_000,
      0, // the import can be short: ask again at once
    );
    await expectRejected(server, admin, locked, 423, /cid: .* is locked: its folder import is still running/, before);
    expectFailureEnvelope(locked.json, 423, 'locked');

    const done = await importing;
    expect(done.status, done.text).toBe(200);
    const edited = await operateOk(server, admin, { cid: root, remove: ['n0'], add: [['n100000', file]] });
    expect((await gatewayGet(server, admin, `/ipfs/${edited}/n100000`)).status).toBe(200);
    expect((await gatewayGet(server, admin, `/ipfs/${edited}/n0`)).status).toBe(404);
  });

  it('needs no import twice: another account that pinned the same root imports it at once', async () => {
    const { randomUUID } = await import('node:crypto');
    const { createUser, createUserKey } = await import('../helpers/account-api.js');
    const uuid = randomUUID();
    await createUser(server, admin, uuid);
    const other = await createUserKey(server, admin, uuid, 'importer', ['admin']);
    const before = await snapshot(server, other);
    await expectRejected(server, other, await folderImport(server, other, HAMT_1000_ROOT), 404, /not pinned by this account/, before);
    await pinAdd(server, other, HAMT_1000_ROOT);
    await importOk(server, other, HAMT_1000_ROOT);
    const file = await uploadCid(server, other, text('theirs\n'));
    await pinAdd(server, other, file);
    const edited = await operateOk(server, other, { cid: HAMT_1000_ROOT, add: [['theirs.txt', file]] });
    expect((await gatewayGet(server, other, `/ipfs/${edited}/theirs.txt`)).bytes.toString()).toBe('theirs\n');
  });
});
