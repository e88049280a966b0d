import { chmod, copyFile, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountUsage, PinRecord } from '../../shared/api-types.js';
import { listObjectKeys, startCephRgw, type CephRgw } from '../helpers/engines/ceph-rgw.js';
import { startPostgres, type PostgresServer } from '../helpers/engines/postgres.js';
import { testPool } from '../helpers/pg-test-pool.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';
import { call, makeTempDir } from '../helpers/test-server.js';
import {
  addressFor,
  carImport,
  carV1,
  fileDag,
  gatewayGet,
  MiB,
  randomData,
  sendRaw,
  stats,
  step2,
  uploadCid,
  type Key,
  type Server,
} from './uploads-helpers.js';
import { until } from '../helpers/until.js';

/**
 * Two `pinfold serve` processes on one PostgreSQL and one Ceph RGW bucket (issue "beyond one machine"):
 * either serves what the other took in, a signed step-2 address made by one is posted to the other, and
 * when one is killed with SIGKILL in the middle of an upload and of a CAR import, the other still serves
 * every pinned DAG whole, the counters are exact, nothing indexed points at the interrupted writes, and
 * the garbage-collection lead (exactly one instance) passes to the survivor.
 */

interface Instance {
  proc: ServeProcess;
  server: Server;
  dataDir: string;
}

interface Held {
  cid: string;
  bytes: Uint8Array;
}

describe('two instances on one PostgreSQL and one S3 bucket', () => {
  let postgres: PostgresServer;
  let rgw: CephRgw;
  let database: string;
  let blocks: string;
  let env: NodeJS.ProcessEnv;
  let masterKeyFile: string;
  let owner: Key;
  let a: Instance;
  let b: Instance;
  const procs: ServeProcess[] = [];
  const dirs: string[] = [];
  /** Every file whose upload was answered: the survivor must serve each whole. */
  const held: Held[] = [];

  async function start(dataDir: string, extra: string[] = []): Promise<Instance> {
    // A short interval: the instance that does not lead asks for the lead every 2 s.
    const proc = startServe(['--data', dataDir, '--port', '0', '--db', database, '--blocks', blocks, '--gc-interval', '2', ...extra], env);
    procs.push(proc);
    return { proc, server: { url: await proc.listening(60_000) }, dataDir };
  }

  async function kill(instance: Instance): Promise<void> {
    instance.proc.child.kill('SIGKILL');
    await instance.proc.exited();
  }

  beforeAll(async () => {
    [postgres, rgw] = await Promise.all([startPostgres(), startCephRgw()]);
    database = await postgres.createDatabase('multi');
    blocks = `s3://pinfold-multi/blocks/?endpoint=${encodeURIComponent(rgw.endpoint)}&region=${rgw.region}`;
    env = { AWS_ACCESS_KEY_ID: rgw.accessKeyId, AWS_SECRET_ACCESS_KEY: rgw.secretAccessKey };
    const [dirA, dirB, scratch] = [await makeTempDir('pinfold-multi-a-'), await makeTempDir('pinfold-multi-b-'), await makeTempDir('pinfold-multi-')];
    dirs.push(dirA, dirB, scratch);
    a = await start(dirA);
    owner = JSON.parse(await readFile(join(dirA, 'owner-key.json'), 'utf8')) as Key;
    // The second instance is given the first one's master key, as docs/scale-out.md says.
    masterKeyFile = join(scratch, 'master.key');
    await copyFile(join(dirA, 'master.key'), masterKeyFile);
    await chmod(masterKeyFile, 0o600);
    b = await start(dirB, ['--master-key-file', masterKeyFile]);
  }, 180_000);

  afterAll(async () => {
    for (const proc of procs) {
      if (proc.child.exitCode === null && proc.child.signalCode === null) {
        proc.child.kill('SIGTERM');
        await proc.exited();
      }
    }
    await Promise.all([rgw?.stop(), postgres?.stop()]);
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  async function sql<T>(text: string): Promise<T[]> {
    const { pool, close } = testPool(database);
    try {
      return (await pool.query(text)).rows as T[];
    } finally {
      await close();
    }
  }

  async function packObjects(): Promise<string[]> {
    return listObjectKeys(rgw, 'pinfold-multi', 'blocks/packs/');
  }

  async function pin(server: Server, cid: string): Promise<void> {
    const response = await call(server, 'POST', '/api/v0/pin/add', { key: owner, query: { arg: cid } });
    expect(response.status, response.text).toBe(200);
  }

  async function pinned(server: Server): Promise<PinRecord[]> {
    const response = await call<{ data: PinRecord[] }>(server, 'GET', '/api/v0/pin', { key: owner, query: { limit: 1000 } });
    expect(response.status).toBe(200);
    return response.json.data;
  }

  async function leads(server: Server): Promise<boolean> {
    const response = await call<{ data: { gc_leader: boolean } }>(server, 'GET', '/api/v0/service', { key: owner });
    expect(response.status).toBe(200);
    return response.json.data.gc_leader;
  }

  /**
   * The survivor serves every answered upload whole, its counters are exactly theirs, and the killed
   * write moved none of the counters it had `before`.
   */
  async function expectWhole(server: Server, before: AccountUsage): Promise<void> {
    const pins = await pinned(server);
    expect(pins.map((pin) => pin.cid).sort()).toEqual(held.map((file) => file.cid).sort());
    for (const file of held) {
      const got = await gatewayGet(server, owner, `/ipfs/${file.cid}`);
      expect(got.status).toBe(200);
      expect(Buffer.compare(got.bytes, Buffer.from(file.bytes))).toBe(0);
    }
    const usage = await stats(server, owner);
    expect({ count: usage.pinned_count, bytes: usage.pinned_bytes }).toEqual({
      count: held.length,
      bytes: pins.reduce((sum, pin) => sum + pin.size, 0),
    });
    expect({ count: usage.pinned_count, bytes: usage.pinned_bytes, ingress: usage.ingress }).toEqual({
      count: before.pinned_count,
      bytes: before.pinned_bytes,
      ingress: before.ingress,
    });
  }

  it('each serves what the other took in, and takes the other’s signed step-2 address', async () => {
    const first = randomData(3 * MiB + 17);
    const cid = await uploadCid(a.server, owner, first);
    await pin(a.server, cid);
    held.push({ cid, bytes: first });
    const read = await gatewayGet(b.server, owner, `/ipfs/${cid}`);
    expect(read.status).toBe(200);
    expect(Buffer.compare(read.bytes, Buffer.from(first))).toBe(0);

    // Step 1 on A, step 2 on B: the address is signed with a key both derive from the shared master key.
    const second = randomData(200_000);
    const address = new URL(await addressFor(a.server, owner, 'POST', '/ipfs/', { size: second.byteLength }));
    const onB = new URL(b.server.url);
    address.host = onB.host;
    const posted = await step2(address.toString(), 'POST', second);
    expect(posted.status, posted.text).toBe(201);
    const secondCid = posted.headers.get('ipfs-hash') ?? '';
    await pin(b.server, secondCid);
    held.push({ cid: secondCid, bytes: second });
    expect((await gatewayGet(a.server, owner, `/ipfs/${secondCid}`)).bytes.byteLength).toBe(second.byteLength);

    // A CAR through B, read through A.
    const third = randomData(1 * MiB + 5);
    const dag = await fileDag(third);
    const car = await carV1([dag.root], dag.blocks);
    const imported = await carImport(b.server, owner, car);
    expect(imported.status, imported.text).toBe(200);
    held.push({ cid: dag.root.toString(), bytes: third });
    expect(Buffer.compare((await gatewayGet(a.server, owner, `/ipfs/${dag.root.toString()}`)).bytes, Buffer.from(third))).toBe(0);

    // One account, one set of counters, whichever instance is asked: egress, metered in memory, reaches
    // the database within a quarter of a second (main/accounts/egress-meter.ts), the rest at once.
    await until('both instances to report the same usage', async () => {
      const [onA, onB] = [await stats(a.server, owner), await stats(b.server, owner)];
      return JSON.stringify(onA) === JSON.stringify(onB) ? true : undefined;
    });
    const usage = await stats(b.server, owner);
    expect({ count: usage.pinned_count, ingress: usage.ingress, egress: usage.egress }).toEqual({
      count: 3,
      ingress: first.byteLength + second.byteLength + car.byteLength,
      egress: first.byteLength + second.byteLength + third.byteLength,
    });
    // Exactly one instance leads garbage collection: the first, which found the lead free.
    expect([await leads(a.server), await leads(b.server)]).toEqual([true, false]);
  }, 120_000);

  it('killed with SIGKILL mid-upload: the other serves every pinned DAG whole, counters exact, the bytes sent indexed nowhere, and takes the GC lead', async () => {
    const before = await stats(b.server, owner);
    const packsBefore = await packObjects();
    // 72 MiB of an 80 MiB upload: the first 64 MiB pack object is stored in the bucket while the rest is
    // still staged, and the body never ends. The moment that object is there, A dies.
    const size = 80 * MiB;
    const url = await addressFor(a.server, owner, 'POST', '/ipfs/', { size });
    const sent = sendRaw(url, 'POST', { 'content-type': 'application/octet-stream', 'content-length': String(size) }, [randomData(72 * MiB)], {
      finish: false,
    });
    sent.catch(() => undefined);
    await until('a pack object of the interrupted upload', async () => ((await packObjects()).length > packsBefore.length ? true : undefined), 60_000);
    await kill(a);
    await expect(sent).rejects.toThrow();
    // The leader's session died with it: B takes the lead at its next try.
    await until('B to lead garbage collection', async () => ((await leads(b.server)) ? true : undefined), 30_000);

    await expectWhole(b.server, before);
    // The stored object belongs to a pack that was never sealed, and no block row points into it: a later
    // sweep deletes it (s3-blockstore.test.ts), and until then nothing serves it.
    const unsealed = await sql<{ id: string; blocks: string }>(
      'SELECT p.id, (SELECT count(*) FROM blocks WHERE pack_id = p.id) AS blocks FROM block_packs p WHERE p.sealed = 0',
    );
    expect(unsealed.length).toBeGreaterThan(0);
    expect(unsealed.every((pack) => Number(pack.blocks) === 0)).toBe(true);
  }, 180_000);

  it('killed with SIGKILL mid-CAR-import: the same; restarted, it finds the lead taken', async () => {
    a = await start(a.dataDir);
    const before = await stats(b.server, owner);
    const packsBefore = await packObjects();
    const dag = await fileDag(randomData(4 * MiB));
    const car = await carV1([dag.root], dag.blocks);
    const url = await addressFor(a.server, owner, 'POST', '/api/v0/dag/import', { size: car.byteLength });
    // The whole CAR goes, and A is killed at the worst moment: its pack objects stored, its commit
    // transaction (block rows, packs sealed, ingress, root pin) open. A session of the test's holds the
    // usage rows, so the commit waits there until A is dead.
    const { pool, close } = testPool(database);
    const holder = await pool.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT * FROM usage FOR UPDATE');
    const sent = step2(url, 'POST', car, { 'content-type': 'application/vnd.ipld.car' });
    sent.catch(() => undefined);
    try {
      await until(
        'A’s commit to wait for the usage rows',
        async () => {
          // pg_locks, not pg_stat_activity: the latter is a snapshot taken once per transaction.
          const waiting = await holder.query<{ n: string }>('SELECT count(*) AS n FROM pg_locks WHERE NOT granted AND pid <> pg_backend_pid()');
          return Number(waiting.rows[0]?.n) > 0 ? true : undefined;
        },
        60_000,
      );
      // Restarted, A finds the lead taken.
      expect(await leads(a.server)).toBe(false);
      await kill(a);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
      await close();
    }
    await expect(sent).rejects.toThrow();

    await expectWhole(b.server, before);
    // Its pack object is in the bucket, its pack never sealed, and no block row points into any unsealed pack.
    expect((await packObjects()).length).toBeGreaterThan(packsBefore.length);
    const orphanRows = await sql<{ n: string }>('SELECT count(*) AS n FROM blocks b JOIN block_packs p ON p.id = b.pack_id WHERE p.sealed = 0');
    expect(Number(orphanRows[0]?.n)).toBe(0);
    expect((await gatewayGet(b.server, owner, `/ipfs/${dag.root.toString()}`)).status).not.toBe(200);
    expect(await leads(b.server)).toBe(true);
  }, 180_000);
});
