import { randomBytes } from 'node:crypto';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3Target } from '../../main/base/backend-urls.js';
import type { Clock } from '../../main/base/clock.js';
import { BadInputError } from '../../main/base/errors.js';
import { openObjectBlockstore, type ObjectBlockstore, type ObjectBlockstoreInit } from '../../main/store/objects/object-blockstore.js';
import { openPostgresStore, type PostgresStore } from '../../main/store/pg/pg-store.js';
import { startCephRgw, type CephRgw } from '../helpers/engines/ceph-rgw.js';
import { startPostgres, type PostgresServer } from '../helpers/engines/postgres.js';
import { waitUntil } from '../helpers/engines/processes.js';
import { rawBlock } from '../helpers/raw-blocks.js';

/**
 * The S3 block store (`--blocks s3://…`) on a real Ceph RGW with its index in a real PostgreSQL. Each test
 * has its own database and key prefix; two stores opened on the same pair stand for two instances.
 */
describe('the S3 block store on Ceph RGW and PostgreSQL', () => {
  let rgw: CephRgw;
  let postgres: PostgresServer;
  let s3: S3Client;
  const bucket = 'pinfold-blocks';
  const opened: Array<{ close(): Promise<void> }> = [];
  let testNumber = 0;

  beforeAll(async () => {
    [rgw, postgres] = await Promise.all([startCephRgw(), startPostgres()]);
    s3 = new S3Client({
      endpoint: rgw.endpoint,
      region: rgw.region,
      forcePathStyle: true,
      credentials: { accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey },
    });
  }, 120_000);
  afterAll(async () => {
    for (const handle of opened.reverse()) await handle.close();
    s3?.destroy();
    await Promise.all([rgw?.stop(), postgres?.stop()]);
  }, 60_000);

  const clockAt = (seconds: number): Clock & { seconds: number } => {
    const clock = { seconds, nowMs: () => clock.seconds * 1000 };
    return clock;
  };

  /** A fresh database and prefix: what one test's instances share. */
  async function backends(): Promise<{ target: S3Target; url: string }> {
    testNumber++;
    const url = await postgres.createDatabase(`s3_blocks_${testNumber}`);
    const target: S3Target = { bucket, prefix: `test-${testNumber}/`, endpoint: rgw.endpoint, region: rgw.region, forcePathStyle: true };
    return { target, url };
  }

  /** One instance: its own PostgreSQL connection and S3 client over the shared backends. */
  async function instance(
    shared: { target: S3Target; url: string },
    init: ObjectBlockstoreInit = {},
  ): Promise<{ blocks: ObjectBlockstore; store: PostgresStore }> {
    const store = await openPostgresStore(shared.url);
    opened.push(store);
    const blocks = await openObjectBlockstore(shared.target, store, {
      credentials: { accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey },
      ...init,
    });
    // Closed before its store (the list is closed in reverse).
    opened.push(blocks);
    return { blocks, store };
  }

  async function objectKeys(prefix: string): Promise<string[]> {
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
    return (listed.Contents ?? []).map((object) => object.Key ?? '').sort();
  }

  const blockOf = (size: number) => rawBlock(new Uint8Array(randomBytes(size)));

  it('stores many blocks across several packs, and answers has, size and reads for each; absent ones are absent', async () => {
    const shared = await backends();
    const { blocks, store } = await instance(shared, { packSizeBytes: 64 * 1024 });
    const all = Array.from({ length: 120 }, (_, i) => blockOf(1 + ((i * 977) % 4096)));
    const batch = blocks.createBatch();
    await Promise.all(all.map(async (block) => batch.put(block.cid, block.bytes)));
    await batch.commit();
    const packs = await store.blockIndex.listPacks();
    expect(packs.length).toBeGreaterThan(2);
    expect(packs.every((pack) => pack.sealed)).toBe(true);
    expect(await objectKeys(shared.target.prefix)).toEqual(packs.map((pack) => `${shared.target.prefix}packs/${String(pack.id).padStart(8, '0')}`));
    // A second instance has no cache: every read is a ranged GET.
    const { blocks: other } = await instance(shared);
    for (const block of all) {
      expect(await other.has(block.cid)).toBe(true);
      expect(await other.blockSize(block.cid)).toBe(block.bytes.byteLength);
      expect(Buffer.from(await other.getBlock(block.cid)).equals(Buffer.from(block.bytes))).toBe(true);
      expect(other.heldBlock(block.cid)).toEqual(block.bytes);
    }
    const absent = blockOf(10);
    expect(await other.has(absent.cid)).toBe(false);
    expect(await other.blockSize(absent.cid)).toBeUndefined();
    expect(await other.findBlock(absent.cid)).toBeUndefined();
    await expect(other.getBlock(absent.cid)).rejects.toMatchObject({ name: 'NotFoundError' });
    expect((await other.stats()).blocks).toBe(all.length);
    // put (a batch of one) and putMany.
    const single = blockOf(300);
    await other.put(single.cid, single.bytes);
    const many = [blockOf(20), blockOf(30)];
    const yielded = [];
    for await (const cid of other.putMany(many)) yielded.push(cid.toString());
    expect(yielded).toEqual(many.map((block) => block.cid.toString()));
    for (const block of [single, ...many]) expect(await blocks.getBlock(block.cid)).toEqual(block.bytes);
  });

  it("reads the first and last block of a pack exactly, into the caller's memory; a pack object is self-describing", async () => {
    const shared = await backends();
    const { blocks, store } = await instance(shared, { packSizeBytes: 1024 * 1024 });
    const first = blockOf(1000);
    const middle = blockOf(70_000);
    const last = blockOf(3);
    const batch = blocks.createBatch();
    for (const block of [first, middle, last]) await batch.put(block.cid, block.bytes);
    await batch.commit();
    const [pack] = await store.blockIndex.listPacks();
    expect(await store.blockIndex.listPackBlocks(pack?.id ?? -1)).toHaveLength(3);
    const { blocks: reader } = await instance(shared);
    for (const block of [first, middle, last]) {
      const memory = new Uint8Array(block.bytes.byteLength);
      const read = await reader.readBlockInto(block.cid, (length) => (length === memory.byteLength ? memory : new Uint8Array(length)));
      expect(read).toBe(memory);
      expect(Buffer.from(memory).equals(Buffer.from(block.bytes))).toBe(true);
      // Read into the caller's memory, so never cached (the caller reuses it).
      expect(reader.heldBlock(block.cid)).toBeUndefined();
    }
    const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: `${shared.target.prefix}packs/${String(pack?.id).padStart(8, '0')}` }));
    const whole = Buffer.from(await (object.Body?.transformToByteArray() ?? Promise.resolve(new Uint8Array())));
    expect(whole.subarray(0, 8).toString('latin1')).toBe('PFPACK01');
    const location = await store.blockIndex.findBlock(last.cid.multihash.bytes);
    expect(location?.offset).toBe(whole.byteLength - 3);
  });

  it('uploads a pack of several MiB whole, sent in 1 MiB pieces and a short last one: the object is the spool byte for byte', async () => {
    const shared = await backends();
    const { blocks, store } = await instance(shared);
    // Three 1 MiB blocks and a 700,001-byte one: with record headers the pack ends inside its fourth MiB.
    const all = [blockOf(1024 * 1024), blockOf(1024 * 1024), blockOf(1024 * 1024), blockOf(700_001)];
    const batch = blocks.createBatch();
    for (const block of all) await batch.put(block.cid, block.bytes);
    await batch.commit();
    const packs = await store.blockIndex.listPacks();
    expect(packs).toHaveLength(1);
    const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: `${shared.target.prefix}packs/${String(packs[0]?.id).padStart(8, '0')}` }));
    const whole = Buffer.from(await (object.Body?.transformToByteArray() ?? Promise.resolve(new Uint8Array())));
    expect(whole.byteLength).toBeGreaterThan(3 * 1024 * 1024);
    for (const block of all) {
      const location = await store.blockIndex.findBlock(block.cid.multihash.bytes);
      const offset = location?.offset ?? -1;
      expect(whole.subarray(offset, offset + block.bytes.byteLength).equals(Buffer.from(block.bytes))).toBe(true);
    }
    expect((await store.blockIndex.findBlock((all[3] as (typeof all)[number]).cid.multihash.bytes))?.offset).toBe(whole.byteLength - 700_001);
  });

  it('keeps a batch invisible until commit; abort leaves no row and no object, even of a pack already uploaded', async () => {
    const shared = await backends();
    const { blocks, store } = await instance(shared, { packSizeBytes: 16 * 1024 });
    const staged = Array.from({ length: 8 }, () => blockOf(6000));
    const batch = blocks.createBatch();
    for (const block of staged) await batch.put(block.cid, block.bytes);
    const [first] = staged;
    if (first === undefined) throw new Error('no blocks');
    expect(await batch.has(first.cid)).toBe(true);
    expect(await blocks.has(first.cid)).toBe(false);
    // Packs fill at 16 KiB: some are uploaded while the batch is still open.
    await waitUntil('a full pack to be uploaded', 30_000, async () => (await objectKeys(shared.target.prefix)).length > 0);
    expect((await store.blockIndex.listPacks()).every((pack) => !pack.sealed)).toBe(true);
    batch.abort();
    await blocks.idle();
    expect(await objectKeys(shared.target.prefix)).toEqual([]);
    expect(await store.blockIndex.listPacks()).toEqual([]);
    for (const block of staged) expect(await blocks.has(block.cid)).toBe(false);
    await expect(batch.put(first.cid, first.bytes)).rejects.toThrow(/aborted/);
  });

  it('leaves nothing visible when alongside throws, and refuses a block whose bytes do not match its CID', async () => {
    const shared = await backends();
    const { blocks, store } = await instance(shared);
    const block = blockOf(500);
    const batch = blocks.createBatch();
    await batch.put(block.cid, block.bytes);
    const wrong = blockOf(500);
    await expect(batch.put(wrong.cid, block.bytes)).rejects.toThrow();
    await expect(
      batch.commit(async (tx) => {
        await tx.blockIndex.createPack(1);
        throw new Error('records refused');
      }),
    ).rejects.toThrow('records refused');
    await blocks.idle();
    expect(await blocks.has(block.cid)).toBe(false);
    expect(await blocks.has(wrong.cid)).toBe(false);
    expect(await store.blockIndex.listPacks()).toEqual([]);
    expect(await objectKeys(shared.target.prefix)).toEqual([]);
    // Over the block limit: refused before anything is staged.
    const { blocks: small } = await instance(shared, { maxBlockBytes: 100 });
    const big = small.createBatch();
    await expect(big.put(block.cid, block.bytes)).rejects.toBeInstanceOf(BadInputError);
    await big.commit();
    expect(await store.blockIndex.listPacks()).toEqual([]);
  });

  it('stages a stored block again without asking, and at commit keeps the first copy, moving its created_at; the second is dead space', async () => {
    const shared = await backends();
    const clock = clockAt(1_000_000);
    const { blocks, store } = await instance(shared, { clock });
    const block = blockOf(2000);
    await blocks.put(block.cid, block.bytes);
    const [first] = await store.blockIndex.listPacks();
    const before = await store.blockIndex.findBlock(block.cid.multihash.bytes);
    clock.seconds += 500;
    const again = blocks.createBatch();
    await again.put(block.cid, block.bytes);
    // Nothing asked or touched before the commit.
    expect((await store.blockIndex.findBlock(block.cid.multihash.bytes))?.createdAt).toBe(1_000_000);
    await again.commit();
    const location = await store.blockIndex.findBlock(block.cid.multihash.bytes);
    expect(location).toEqual({ ...before, createdAt: 1_000_500 });
    expect(location?.packId).toBe(first?.id);
    const packs = await store.blockIndex.listPacks();
    expect(packs.map((pack) => [pack.id === first?.id, pack.liveBlocks, pack.liveBytes])).toEqual([
      [true, 1, 2000],
      [false, 0, 0],
    ]);
    expect(await objectKeys(shared.target.prefix)).toHaveLength(2);
    expect(await blocks.getBlock(block.cid)).toEqual(block.bytes);
    // Compaction reclaims the dead copy's pack.
    expect((await blocks.compact()).packsCompacted).toBe(1);
    expect(await objectKeys(shared.target.prefix)).toHaveLength(1);
  });

  it("indexes a batch's own copy of a block that GC swept on another instance while the batch was open", async () => {
    const shared = await backends();
    const clock = clockAt(2_000_000);
    const { blocks: uploader } = await instance(shared, { clock });
    const { blocks: collector } = await instance(shared, { clock });
    const resent = blockOf(700);
    const swept = blockOf(800);
    await uploader.put(resent.cid, resent.bytes);
    await uploader.put(swept.cid, swept.bytes);
    // GC lists both as created at 2_000_000 and deletes rows older than its cutoff, while a batch holds a copy of one.
    clock.seconds = 2_000_010;
    const batch = uploader.createBatch();
    await batch.put(resent.cid, resent.bytes);
    expect(await collector.deleteMultihashes([resent.cid.multihash.bytes, swept.cid.multihash.bytes], { createdBefore: 2_000_001 })).toBe(2);
    expect(await collector.has(resent.cid)).toBe(false);
    await batch.commit();
    expect(await collector.has(resent.cid)).toBe(true);
    expect(await collector.getBlock(resent.cid)).toEqual(resent.bytes);
    expect(await collector.blockSize(resent.cid)).toBe(700);
    expect(await collector.has(swept.cid)).toBe(false);
  });

  it('compacts: a pack with nothing live loses its object and row; a sparse pack is rewritten and every live block still reads', async () => {
    const shared = await backends();
    const { blocks, store } = await instance(shared, { packSizeBytes: 1024 * 1024 });
    const emptied = [blockOf(900), blockOf(901)];
    await (async () => {
      const batch = blocks.createBatch();
      for (const block of emptied) await batch.put(block.cid, block.bytes);
      await batch.commit();
    })();
    const sparse = Array.from({ length: 10 }, () => blockOf(1500));
    const batch = blocks.createBatch();
    for (const block of sparse) await batch.put(block.cid, block.bytes);
    await batch.commit();
    const [emptyPack, sparsePack] = await store.blockIndex.listPacks();
    const keyOf = (id: number | undefined) => `${shared.target.prefix}packs/${String(id).padStart(8, '0')}`;
    expect(await objectKeys(shared.target.prefix)).toEqual([keyOf(emptyPack?.id), keyOf(sparsePack?.id)]);
    expect(await blocks.deleteMultihashes(emptied.map((block) => block.cid.multihash.bytes))).toBe(2);
    const gone = sparse.slice(0, 7);
    const live = sparse.slice(7);
    expect(await blocks.deleteMultihashes(gone.map((block) => block.cid.multihash.bytes))).toBe(7);
    // A dense pack (nothing deleted) is left alone.
    const dense = blockOf(100);
    await blocks.put(dense.cid, dense.bytes);
    const result = await blocks.compact();
    expect(result.packsCompacted).toBe(2);
    expect(result.bytesReclaimed).toBeGreaterThan(7 * 1500);
    const packs = await store.blockIndex.listPacks();
    expect(packs.map((pack) => pack.id)).not.toContain(emptyPack?.id);
    expect(packs.map((pack) => pack.id)).not.toContain(sparsePack?.id);
    expect(packs.every((pack) => pack.sealed)).toBe(true);
    expect(packs.reduce((sum, pack) => sum + pack.liveBlocks, 0)).toBe(4);
    const keys = await objectKeys(shared.target.prefix);
    expect(keys).not.toContain(keyOf(emptyPack?.id));
    expect(keys).not.toContain(keyOf(sparsePack?.id));
    expect(keys).toEqual(packs.map((pack) => keyOf(pack.id)));
    const { blocks: reader } = await instance(shared);
    for (const block of [...live, dense]) expect(await reader.getBlock(block.cid)).toEqual(block.bytes);
    for (const block of gone) expect(await reader.has(block.cid)).toBe(false);
    expect(await blocks.compact()).toEqual({ packsCompacted: 0, bytesReclaimed: 0 });
  });

  it('sweeps an orphan (a pack uploaded by a batch that never committed) once its heartbeat is older than the grace, not before', async () => {
    const shared = await backends();
    const start = 3_000_000;
    const writerClock = clockAt(start);
    const { blocks: writer, store } = await instance(shared, { clock: writerClock, packSizeBytes: 8 * 1024, leaseRenewSeconds: 0.02 });
    // Two blocks fill a pack: two packs go up while the batch is open, the fifth block stays in its spool.
    const batch = writer.createBatch();
    for (let i = 0; i < 5; i++) {
      const block = blockOf(5000);
      await batch.put(block.cid, block.bytes);
    }
    await waitUntil('two full packs to be uploaded', 30_000, async () => (await objectKeys(shared.target.prefix)).length === 2);
    const orphans = await store.blockIndex.listPacks();
    expect(orphans).toHaveLength(3);
    expect(orphans.every((pack) => !pack.sealed)).toBe(true);
    // While the batch is open, its heartbeat keeps its packs young.
    writerClock.seconds = start + 1000;
    await waitUntil('the batch to heart-beat its packs', 30_000, async () =>
      (await store.blockIndex.listPacks()).every((pack) => pack.createdAt === start + 1000),
    );
    const { blocks: early } = await instance(shared, { clock: clockAt(start + 1000 + 3599) });
    expect(await early.compact()).toEqual({ packsCompacted: 0, bytesReclaimed: 0 });
    expect(await objectKeys(shared.target.prefix)).toHaveLength(2);
    // The writer's instance stands for a dead one: its batch never commits, and its clock stands still, so its
    // heartbeat no longer moves anything; an hour later the packs are orphans.
    const { blocks: later } = await instance(shared, { clock: clockAt(start + 1000 + 3601) });
    const swept = await later.compact();
    expect(swept.packsCompacted).toBe(orphans.length);
    expect(await objectKeys(shared.target.prefix)).toEqual([]);
    expect(await store.blockIndex.listPacks()).toEqual([]);
  });

  it('fails at open with a clear error for a wrong secret or an endpoint nobody answers at', async () => {
    const shared = await backends();
    const store = await openPostgresStore(shared.url);
    opened.push(store);
    const wrongKey = openObjectBlockstore(shared.target, store, { credentials: { accessKeyId: rgw.accessKeyId, secretAccessKey: 'wrong' } });
    await expect(wrongKey).rejects.toBeInstanceOf(BadInputError);
    await expect(wrongKey).rejects.toThrow(
      /--blocks: cannot use s3:\/\/pinfold-blocks\/test-\d+\/ at http:\/\/127\.0\.0\.1:\d+: SignatureDoesNotMatch \(HTTP 403\)/,
    );
    const nobody = openObjectBlockstore({ ...shared.target, endpoint: 'http://127.0.0.1:9' }, store, {
      credentials: { accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey },
    });
    await expect(nobody).rejects.toThrow(/--blocks: cannot use s3:\/\/pinfold-blocks\/test-\d+\/ at http:\/\/127\.0\.0\.1:9: .*ECONNREFUSED/);
    expect(await store.blockIndex.listPacks()).toEqual([]);
  });
});
