import { rm } from 'node:fs/promises';
import { privateKeyToProtobuf } from '@libp2p/crypto/keys';
import { unmarshalIPNSRecord } from 'ipns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateNameKey, nameOfKey } from '../../main/names/keys.js';
import type { SyncConflict, SyncFolderView } from '../../shared/api-types.js';
import { expectError, runCli } from '../helpers/account-api.js';
import { call, makeTempDir, startTestServer, type TestServer } from '../helpers/test-server.js';
import { importName, publishName } from './names-helpers.js';
import { listed, put, referenceRoot, syncAdd } from './sync-helpers.js';
import { until } from '../helpers/until.js';
import { gatewayGet } from './uploads-helpers.js';

const EMPTY_DIR = 'bafybeiczsscdsbs7ffqz55asqdf3smv6klcw3gofszvwlyarci47bgf354';

/** The sequence and value of the record a server holds for `name` (its own, as its gateway serves it). */
async function ownRecord(server: TestServer, name: string): Promise<{ seq: bigint; value: string }> {
  const answer = await gatewayGet(server, server.owner, `/ipns/${name}`, { query: { format: 'ipns-record' } });
  expect(answer.status).toBe(200);
  const record = unmarshalIPNSRecord(answer.bytes);
  return { seq: record.sequence, value: record.value };
}

/** Waits until the folder is idle with no changes pending and its root is the reference root of `folder`. */
async function settled(server: TestServer, id: string, folder: string): Promise<SyncFolderView> {
  const want = await referenceRoot(folder);
  return until(`folder ${id} at ${want}`, async () => {
    const row = await listed(server, id);
    return row.root === want && row.state === 'idle' && row.pending === 0 ? row : undefined;
  });
}

async function versionsOf(server: TestServer, id: string): Promise<number> {
  const response = await call<{ total: number }>(server, 'GET', '/api/v0/sync/versions', { key: server.owner, query: { id } });
  return response.json.total;
}

/**
 * Contract section 11, "two machines, one name": the same key imported on two Pinfolds on loopback, each with a
 * sync folder publishing it. A is a public gateway (it serves /routing/v1/ipns); B's routing endpoint is A, so B
 * reads A's record before each publish, and B's records are PUT to A, which holds the name too and keeps them as
 * seen. Neither ever overwrites the other's newer record: the folder shows the conflict until its user forces.
 */
describe('two machines, one name: a sync folder never overwrites a newer record from elsewhere', () => {
  let a: TestServer;
  let b: TestServer;
  let name: string;
  let secret: string;
  const temps: string[] = [];
  let folderA: string;
  let folderB: string;
  let idA: string;
  let idB: string;

  beforeAll(async () => {
    const key = await generateNameKey();
    name = nameOfKey(key);
    secret = Buffer.from(privateKeyToProtobuf(key)).toString('base64');
    a = await startTestServer({ publicGateway: true, network: {} });
    b = await startTestServer({ network: { routing: [a.url] } }, {}, undefined, { namePublishing: { minPutIntervalMs: 100 } });
    for (const server of [a, b]) {
      const imported = await importName(server, server.owner, { name, value: EMPTY_DIR, secret_key: secret, format: 'libp2p-protobuf-cleartext' });
      expect(imported.status, imported.text).toBe(200);
      const marked = await call(server, 'POST', '/api/v0/name/public', { key: server.owner, query: { arg: name, on: true } });
      expect(marked.status, marked.text).toBe(200);
    }
    folderA = await makeTempDir('pinfold-two-a-');
    folderB = await makeTempDir('pinfold-two-b-');
    temps.push(folderA, folderB);
  });
  afterAll(async () => {
    for (const server of [b, a]) await server?.stop();
    for (const dir of temps) await rm(dir, { recursive: true, force: true });
  });

  it('sync add takes an owned name to publish to; bad ones are refused and add nothing', async () => {
    const other = await makeTempDir('pinfold-two-bad-');
    temps.push(other);
    expectError(await syncAdd(a, a.owner, { path: other, ipns_name: 'nope' }), 400, /^ipns_name must be an IPNS name/);
    expectError(await syncAdd(a, a.owner, { path: other, ipns_name: 42 }), 400, /^ipns_name must be an IPNS name/);
    expectError(await syncAdd(a, a.owner, { path: other, ipns: false, ipns_name: name }), 400, /^ipns_name cannot be given with ipns: false/);
    const unknown = nameOfKey(await generateNameKey());
    expectError(await syncAdd(a, a.owner, { path: other, ipns_name: unknown }), 404, /^ipns_name: name .* not found/);
    expect((await call<{ total: number }>(a, 'GET', '/api/v0/sync', { key: a.owner })).json.total).toBe(0);

    await put(folderA, 'a.txt', 'from A');
    const added = await syncAdd(a, a.owner, { path: folderA, ipns_name: name });
    expect(added.status, added.text).toBe(200);
    idA = added.json.data.id;
    expect(added.json.data.ipns_name).toBe(name);
    // A saw no other record: its first version is published, sequence 1.
    const rowA = await settled(a, idA, folderA);
    expect(rowA.conflict).toBeNull();
    expect(await ownRecord(a, name)).toEqual({ seq: 1n, value: `/ipfs/${rowA.root}` });
    // One folder per name.
    expectError(await syncAdd(a, a.owner, { path: other, ipns_name: name }), 409, /^ipns_name: .* is published by the sync folder/);
  });

  it("B's folder reads A's newer record first: the conflict is shown, B's version made and pinned, nothing overwritten", async () => {
    await put(folderB, 'b.txt', 'from B');
    const added = await syncAdd(b, b.owner, { path: folderB, ipns_name: name });
    expect(added.status, added.text).toBe(200);
    idB = added.json.data.id;
    const rowA = await listed(a, idA);
    const rowB = await settled(b, idB, folderB);
    expect(rowB.conflict).toEqual({ seq: 1, value: rowA.root, seen_at: expect.any(Number) as number, source: a.url } satisfies SyncConflict);
    // B kept its import's record; A still serves its own.
    expect(await ownRecord(b, name)).toEqual({ seq: 0n, value: `/ipfs/${EMPTY_DIR}` });
    expect(await ownRecord(a, name)).toEqual({ seq: 1n, value: `/ipfs/${rowA.root}` });
    // The folder's detail carries it too.
    const detail = await call<{ data: SyncFolderView }>(b, 'GET', '/api/v0/sync/detail', { key: b.owner, query: { id: idB } });
    expect(detail.json.data.conflict).toEqual(rowB.conflict);

    // Its sync goes on: another change is another version, pinned, still not published.
    await put(folderB, 'c.txt', 'more from B');
    const next = await settled(b, idB, folderB);
    expect(next.root).not.toBe(rowB.root);
    expect(await versionsOf(b, idB)).toBe(2);
    const pinned = await call<{ data: { cid: string }[] }>(b, 'GET', '/api/v0/pin', { key: b.owner, query: { cid: next.root } });
    expect(pinned.json.data.map((pin) => pin.cid)).toEqual([next.root]);
    expect((await ownRecord(b, name)).seq).toBe(0n);
    expect(next.conflict?.seq).toBe(1);
  });

  it('sync/publish without force answers 409 with the conflict and changes nothing; bad input is refused', async () => {
    expectError(
      await call(b, 'POST', '/api/v0/sync/publish', { key: b.owner, query: { id: idB } }),
      409,
      /^id: a newer record of .* was seen elsewhere \(sequence 1, http.*force=true/,
    );
    expectError(await call(b, 'POST', '/api/v0/sync/publish', { key: b.owner, query: { id: idB, force: 'yes' } }), 400, /^force must be true or false/);
    expectError(await call(b, 'POST', '/api/v0/sync/publish', { key: b.owner, query: { id: 'nope', force: true } }), 404, /^id: sync folder/);
    expectError(await call(b, 'POST', '/api/v0/sync/publish', { key: b.owner, query: { force: true } }), 400, /^id is required/);
    // The command line says the same.
    const data = ['--data', b.dataDir];
    const list = await runCli(['sync', 'list', ...data]);
    expect(list.stdout).toMatch(
      new RegExp(`conflict: a newer record of its name \\(sequence 1, \\S+\\) was seen at ${a.url}; not publishing \\(sync publish ${idB} --force\\)`),
    );
    const refused = await runCli(['sync', 'publish', idB, ...data]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/newer record .* force=true .*\(HTTP 409\)/);
    expect((await ownRecord(b, name)).seq).toBe(0n);
    expect((await ownRecord(a, name)).seq).toBe(1n);
  });

  it('"publish mine anyway": B publishes above every sequence seen; A, which is sent B\'s record, shows the conflict in turn and stops publishing', async () => {
    const forced = await call<{ data: SyncFolderView }>(b, 'POST', '/api/v0/sync/publish', { key: b.owner, query: { id: idB, force: true } });
    expect(forced.status, forced.text).toBe(200);
    expect(forced.json.data.conflict).toBeNull();
    const rowB = await listed(b, idB);
    expect(rowB.conflict).toBeNull();
    expect(await ownRecord(b, name)).toEqual({ seq: 2n, value: `/ipfs/${rowB.root}` });

    // B's public record reaches its routing endpoint, A: refused there (A holds the name) but kept as seen.
    const conflictA = await until('the conflict on A', async () => (await listed(a, idA)).conflict ?? undefined);
    expect(conflictA).toEqual({ seq: 2, value: rowB.root, seen_at: expect.any(Number) as number, source: 'pushed' });
    const rootA = (await listed(a, idA)).root;
    expect(await ownRecord(a, name)).toEqual({ seq: 1n, value: `/ipfs/${rootA}` });

    // A's next version is made, not published.
    await put(folderA, 'a2.txt', 'more from A');
    const next = await settled(a, idA, folderA);
    expect(next.root).not.toBe(rootA);
    expect(next.conflict?.seq).toBe(2);
    expect(await ownRecord(a, name)).toEqual({ seq: 1n, value: `/ipfs/${rootA}` });
  });

  it('plain name/publish never signs a sequence at or below one seen: A publishes above B', async () => {
    const published = await publishName(a, a.owner, name, EMPTY_DIR);
    expect(published.status, published.text).toBe(200);
    expect(await ownRecord(a, name)).toEqual({ seq: 3n, value: `/ipfs/${EMPTY_DIR}` });
    // A's own record is now the newest it has seen: no conflict on its folder.
    expect((await listed(a, idA)).conflict).toBeNull();
  });
});
