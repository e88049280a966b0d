import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { OwnerKey } from '../../main/app/create-app.js';
import { postgresCoordination } from '../../main/store/pg/coordination.js';
import { createKey } from '../helpers/account-api.js';
import { startPostgres, type PostgresServer } from '../helpers/engines/postgres.js';
import { ownerKeyOf } from '../helpers/owner-key.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';
import { call, makeTempDir } from '../helpers/test-server.js';
import { deferred } from '../helpers/deferred.js';
import { leadsGc, queryDatabase, startInstance, waitingAdvisoryLocks, writeMasterKeyFile, type Instance } from './postgres-instances-helpers.js';
import { addressFor, randomData, step2 } from './uploads-helpers.js';
import { until } from '../helpers/until.js';

/**
 * Several `pinfold serve` instances on one PostgreSQL database (issue 16), each with its own data folder,
 * here as two apps in one process: one master key, one owner key, upload addresses valid on any of them,
 * deletions and IPNS publishes seen by the others' caches, the GC lock across instances, one GC leader.
 */
describe('several instances on one PostgreSQL database', () => {
  let postgres: PostgresServer;
  let databases = 0;
  const dirs: string[] = [];
  const running: Instance[] = [];

  beforeAll(async () => {
    postgres = await startPostgres();
  });
  afterEach(async () => {
    for (const instance of running.splice(0).reverse()) await instance.app.close();
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  afterAll(async () => {
    await postgres?.stop();
  });

  const freshDatabase = (): Promise<string> => postgres.createDatabase(`instances_${++databases}`);
  const folder = async (): Promise<string> => {
    const dir = await makeTempDir('pinfold-instances-');
    dirs.push(dir);
    return dir;
  };
  const start = async (...args: Parameters<typeof startInstance>): Promise<Instance> => {
    const instance = await startInstance(...args);
    running.push(instance);
    return instance;
  };
  /** Two instances on a new database sharing a master key file; A first, so A holds the owner key. */
  const pair = async (overrides: Parameters<typeof startInstance>[2] = {}): Promise<{ db: string; a: Instance; b: Instance }> => {
    const db = await freshDatabase();
    const masterKeyFile = await writeMasterKeyFile(await folder());
    const a = await start(db, await folder(), { masterKeyFile, ...overrides });
    const b = await start(db, await folder(), { masterKeyFile, ...overrides });
    return { db, a, b };
  };

  it('two instances starting at once on a new database make one owner and one owner key file', async () => {
    const db = await freshDatabase();
    const masterKeyFile = await writeMasterKeyFile(await folder());
    const [first, second] = await Promise.all([start(db, await folder(), { masterKeyFile }), start(db, await folder(), { masterKeyFile })]);
    const withKey = [first, second].filter((instance) => instance.app.ownerKey !== null);
    expect(withKey).toHaveLength(1);
    const [maker] = withKey as [Instance];
    const other = maker === first ? second : first;
    expect(maker.app.ownerKeyCreated).toBe(true);
    expect(existsSync(join(maker.dataDir, 'owner-key.json'))).toBe(true);
    expect(existsSync(join(other.dataDir, 'owner-key.json'))).toBe(false);
    expect(other.app.ownerKeyCreated).toBe(false);
    // The other one says where the key is: the maker's folder, on this host.
    expect(other.app.ownerKeyLocation).toBe(`${hostname()}:${join(maker.dataDir, 'owner-key.json')}`);
    expect(other.app.sharedNotes.join('\n')).toContain(join(maker.dataDir, 'owner-key.json'));
    expect(await queryDatabase(db, 'SELECT count(*)::int AS n FROM accounts WHERE is_owner = 1')).toEqual([{ n: 1 }]);
    expect(await queryDatabase(db, 'SELECT count(*)::int AS n FROM access_keys')).toEqual([{ n: 1 }]);
    // The owner key works on both.
    expect(await leadsGc(other, ownerKeyOf(maker.app))).toBeTypeOf('boolean');

    // A restart of the other one still mints nothing; the maker, having lost its file, gets a new key.
    await other.app.close();
    running.splice(running.indexOf(other), 1);
    const again = await start(db, other.dataDir, { masterKeyFile });
    expect(again.app.ownerKey).toBeNull();
    expect(await queryDatabase(db, 'SELECT count(*)::int AS n FROM access_keys')).toEqual([{ n: 1 }]);
    await maker.app.close();
    running.splice(running.indexOf(maker), 1);
    await rm(join(maker.dataDir, 'owner-key.json'));
    const remade = await start(db, maker.dataDir, { masterKeyFile });
    expect(remade.app.ownerKeyCreated).toBe(true);
    expect(await leadsGc(again, ownerKeyOf(remade.app))).toBeTypeOf('boolean');
  });

  it("a second instance starts with the first one's master key file, and without it is refused with a message saying so", async () => {
    const db = await freshDatabase();
    const a = await start(db, await folder());
    const masterKeyPath = join(a.dataDir, 'master.key');
    expect(a.app.sharedNotes.join('\n')).toContain(`Master key of this database: ${hostname()}:${masterKeyPath}`);

    const refusedDir = await folder();
    const refused = startInstance(db, refusedDir);
    await expect(refused).rejects.toThrow(/--master-key-file/);
    await expect(refused).rejects.toThrow(masterKeyPath);
    expect(existsSync(join(refusedDir, 'owner-key.json'))).toBe(false);

    const b = await start(db, refusedDir, { masterKeyFile: masterKeyPath });
    expect(b.app.ownerKey).toBeNull();
    // B opens what A sealed: an IPNS name made on A is republished (its key unsealed) through B.
    const owner = ownerKeyOf(a.app);
    const created = await call<{ data: { name: string } }>(a, 'POST', '/api/v0/name/create', { key: owner, query: { arg: 'bafkqaaa' } });
    expect(created.status).toBe(200);
    const published = await call(b, 'POST', '/api/v0/name/publish', { key: owner, query: { key: created.json.data.name, arg: 'bafkqabtimvwgy3yk' } });
    expect(published.status).toBe(200);
  });

  it('two first starts with different master keys at once: one writes the sealed check, the other is refused', async () => {
    const db = await freshDatabase();
    const starts = await Promise.allSettled([start(db, await folder()), start(db, await folder())]);
    expect(starts.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = starts.find((result) => result.status === 'rejected');
    expect(String(refused?.reason)).toMatch(/--master-key-file/);
  });

  it('refuses a master key file others can read, one that is not a key, and one given without --db', async () => {
    const db = await freshDatabase();
    const dir = await folder();
    await expect(startInstance(db, await folder(), { masterKeyFile: await writeMasterKeyFile(dir, 0o644) })).rejects.toThrow(/readable by others.*chmod 600/);
    await expect(startInstance(db, await folder(), { masterKeyFile: join(dir, 'missing.key') })).rejects.toThrow(/does not exist/);
    const notAKey = join(dir, 'short.key');
    await writeFile(notAKey, `${Buffer.alloc(16).toString('base64')}\n`, { mode: 0o600 });
    await expect(startInstance(db, await folder(), { masterKeyFile: notAKey })).rejects.toThrow(/must hold 32 bytes in base64/);
    const sqliteDir = await folder();
    await expect(startInstance(db, sqliteDir, { masterKeyFile: await writeMasterKeyFile(await folder()), database: undefined })).rejects.toThrow(
      /for instances sharing a PostgreSQL database \(--db\)/,
    );
    // Refused before the database was opened: not even its tables were made; nor a SQLite file.
    expect(await queryDatabase(db, "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'")).toEqual([{ n: 0 }]);
    expect(existsSync(join(sqliteDir, 'pinfold.db'))).toBe(false);
  });

  it('an upload address signed by one instance is accepted by the other', async () => {
    const { a, b } = await pair();
    const owner = ownerKeyOf(a.app);
    const bytes = randomData(10_000);
    const signed = new URL(await addressFor(a, owner, 'POST', '/ipfs/', { size: bytes.byteLength }));
    const onB = `${b.url}${signed.pathname}${signed.search}`;
    const uploaded = await step2(onB, 'POST', bytes);
    expect(uploaded.status, uploaded.text).toBe(201);
  });

  it('a key deleted through one instance stops working on the other', async () => {
    const { a, b } = await pair();
    const owner = ownerKeyOf(a.app);
    const doomed = await createKey(a, owner, 'doomed', ['admin']);
    // B has verified (and cached) the key.
    expect((await call(b, 'GET', '/api/v0/keys', { key: doomed })).status).toBe(200);
    expect((await call(a, 'DELETE', '/api/v0/key', { key: owner, body: { name: 'doomed' } })).status).toBe(200);
    await until('B to refuse the deleted key', async () => ((await call(b, 'GET', '/api/v0/keys', { key: doomed })).status === 401 ? true : undefined), 10_000);
  });

  it('an IPNS publish through one instance is resolved by the other', async () => {
    const { a, b } = await pair();
    const owner = ownerKeyOf(a.app);
    const created = await call<{ data: { name: string } }>(a, 'POST', '/api/v0/name/create', { key: owner, query: { arg: 'bafkqaaa' } });
    const name = created.json.data.name;
    const gatewayText = async (): Promise<string> => {
      const response = await call(b, 'GET', `/ipns/${name}`, { key: owner });
      expect(response.status).toBe(200);
      return response.text;
    };
    // B resolves (and caches, for the record's year) the first value: the empty identity CID.
    expect(await gatewayText()).toBe('');
    expect((await call(a, 'POST', '/api/v0/name/publish', { key: owner, query: { key: name, arg: 'bafkqabtimvwgy3yk' } })).status).toBe(200);
    await until('B to resolve the new value', async () => ((await gatewayText()) === 'hello\n' ? true : undefined), 10_000);
    expect((await call(a, 'POST', '/api/v0/name/rm', { key: owner, query: { key: name } })).status).toBe(200);
    await until(
      'B to forget the removed name',
      async () => ((await call(b, 'GET', `/ipns/${name}`, { key: owner })).status === 404 ? true : undefined),
      10_000,
    );
  });

  it("a GC on one instance waits while another instance holds a pin write's (shared) lock", async () => {
    const { db, a } = await pair();
    const owner = ownerKeyOf(a.app);
    // Another instance's pin write, held open: the shared GC lock across instances.
    const other = postgresCoordination(db);
    const pinWrite = deferred();
    try {
      const pinWriteHeld = deferred();
      void other.gcLock.shared(() => {
        pinWriteHeld.resolve();
        return pinWrite.promise;
      });
      await pinWriteHeld.promise;
      let gcAnswered = false;
      const gc = call(a, 'POST', '/api/v0/repo/gc', { key: owner }).then((response) => {
        gcAnswered = true;
        return response;
      });
      await until('the GC to wait on the advisory lock', async () => ((await waitingAdvisoryLocks(db)) === 1 ? true : undefined), 10_000);
      expect(gcAnswered).toBe(false);
      pinWrite.resolve();
      expect((await gc).status).toBe(200);
    } finally {
      // Let go even when an assertion failed, or closing the coordination would wait for the hold forever.
      pinWrite.resolve();
      await other.close();
    }
  });

  it('exactly one instance leads GC; when it closes, the other takes over', async () => {
    const { a, b } = await pair({ gcIntervalSeconds: 1 });
    const owner = ownerKeyOf(a.app);
    // A started first and took the lead; B asks again every second.
    expect([await leadsGc(a, owner), await leadsGc(b, owner)]).toEqual([true, false]);
    await a.app.close();
    running.splice(running.indexOf(a), 1);
    await until('B to lead', async () => ((await leadsGc(b, owner)) ? true : undefined), 10_000);
  });
});

describe('two `pinfold serve` processes on one PostgreSQL database', () => {
  let postgres: PostgresServer;
  const dirs: string[] = [];
  const processes: ServeProcess[] = [];
  beforeAll(async () => {
    postgres = await startPostgres();
  });
  afterAll(async () => {
    for (const serve of processes) if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGTERM');
    for (const serve of processes) await serve.exited().catch(() => undefined);
    await postgres?.stop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('the leader killed with SIGKILL hands the GC lead over to the other', async () => {
    const db = await postgres.createDatabase('killed_leader');
    const keyDir = await makeTempDir('pinfold-serve-key-');
    dirs.push(keyDir);
    const masterKeyFile = await writeMasterKeyFile(keyDir);
    const serve = async (): Promise<{ process: ServeProcess; url: string; dataDir: string }> => {
      const dataDir = await makeTempDir('pinfold-serve-instance-');
      dirs.push(dataDir);
      const process = startServe(['--data', dataDir, '--db', db, '--port', '0', '--gc-interval', '1'], { PINFOLD_MASTER_KEY_FILE: masterKeyFile });
      processes.push(process);
      return { process, url: await process.listening(), dataDir };
    };
    const a = await serve();
    const b = await serve();
    expect(a.process.stdout()).toContain(`Owner access key written to ${join(a.dataDir, 'owner-key.json')}`);
    expect(a.process.stdout()).toContain(`Master key of this database: ${hostname()}:${masterKeyFile}`);
    expect(b.process.stdout()).toContain(
      `Owner access key: made by the first instance on this database, in ${hostname()}:${join(a.dataDir, 'owner-key.json')}`,
    );
    const owner = JSON.parse(await readFile(join(a.dataDir, 'owner-key.json'), 'utf8')) as OwnerKey;
    expect([await leadsGc(a, owner), await leadsGc(b, owner)]).toEqual([true, false]);
    expect(a.process.stderr()).toContain('garbage collection: this instance leads');
    expect(b.process.stderr()).not.toContain('garbage collection: this instance leads');

    a.process.child.kill('SIGKILL');
    expect(await a.process.exited()).toBeNull();
    // PostgreSQL ends the dead process's session, and its advisory lock with it; B asks every second.
    await until('B to lead', async () => ((await leadsGc(b, owner)) ? true : undefined), 20_000);
    expect(b.process.stderr()).toContain('garbage collection: this instance leads');
  });
});
