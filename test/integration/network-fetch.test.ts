import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FetchTuning } from '../../main/network/fetch-tuning.js';
import type { PinRecord } from '../../shared/api-types.js';
import { createUser, createUserKey } from '../helpers/account-api.js';
import { openEvents } from '../helpers/event-stream-reader.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { call, makeTempDir, startTestServer, type TestServer } from '../helpers/test-server.js';
import { startTrustlessGateway, type GatewayScript, type TestGateway } from '../helpers/trustless-gateway.js';
import { cborDag, expectHeld, hamtDag, heldBytes, pinAdd, pinReaches, type TestDag } from './network-fetch-helpers.js';
import { carImport, carV1, expectNotServed, fileDag, gatewayGet, MiB, randomData, stats, uploadCid, type Key } from './uploads-helpers.js';
import { until } from '../helpers/until.js';
import { rawBlock } from '../helpers/raw-blocks.js';

/**
 * Issue 23, parts 1 and 3: a pin of a CID Pinfold lacks completes from the network. A holds content and
 * serves it as a public trustless gateway; B pins it with A (or a test gateway that misbehaves) as its
 * source, each on loopback.
 */

/** Short waits, so a stall or a cool-down costs a fraction of a second. */
const FAST: Partial<FetchTuning> = {
  firstByteTimeoutMs: 1000,
  idleTimeoutMs: 1000,
  backoffBaseMs: 20,
  backoffMaxMs: 200,
  asideMs: 200,
  asideMaxMs: 1000,
  roundDelayMs: 50,
  roundDelayMaxMs: 300,
  batchBlocks: 16,
  batchMs: 200,
};

describe('pins complete from the network (issue 23)', () => {
  let a: TestServer;
  let cbor: TestDag;
  let hamt: TestDag;
  let file: { cid: string; bytes: Uint8Array; dag: TestDag };
  const servers: TestServer[] = [];
  const gateways: (TestGateway | ScriptedServer)[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    a = await startTestServer({ publicGateway: true });
    cbor = cborDag('shared with B');
    expect((await carImport(a, a.owner, await carV1([cbor.root], cbor.blocks))).status).toBe(200);
    const fixture = await hamtDag();
    hamt = fixture;
    expect((await carImport(a, a.owner, fixture.car)).status).toBe(200);
    const bytes = randomData(4 * MiB + 123);
    const built = await fileDag(bytes);
    file = {
      cid: await uploadCid(a, a.owner, bytes),
      bytes,
      dag: { root: built.root, blocks: built.blocks, bytes: built.blocks.reduce((sum, block) => sum + block.bytes.byteLength, 0) },
    };
    expect(file.cid).toBe(built.root.toString());
  });
  afterAll(async () => {
    await a?.stop();
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.stop();
    for (const gateway of gateways.splice(0)) await gateway.close();
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  async function fetchingServer(fetchFrom: string[], options: { routing?: string[]; dataDir?: string; gcGraceSeconds?: number } = {}): Promise<TestServer> {
    const server = await startTestServer(
      {
        network: { fetchFrom, routing: options.routing ?? [] },
        ...(options.dataDir ? { dataDir: options.dataDir } : {}),
        ...(options.gcGraceSeconds !== undefined ? { gcGraceSeconds: options.gcGraceSeconds } : {}),
      },
      {},
      undefined,
      { fetchTuning: FAST },
    );
    servers.push(server);
    return server;
  }

  async function gateway(dag: TestDag, script: Partial<GatewayScript> = {}): Promise<TestGateway> {
    const started = await startTrustlessGateway(dag.blocks, script);
    gateways.push(started);
    return started;
  }

  it('B pins a file, a HAMT folder and a dag-cbor DAG it lacks, serves them whole, and counts exactly their bytes as ingress', async () => {
    const b = await fetchingServer([a.url]);
    for (const cid of [file.cid, hamt.root.toString(), cbor.root.toString()]) await pinAdd(b, b.owner, cid);
    for (const cid of [file.cid, hamt.root.toString(), cbor.root.toString()]) await pinReaches(b, b.owner, cid, 'pinned');
    expect((await gatewayGet(b, b.owner, `/ipfs/${file.cid}`)).bytes.equals(Buffer.from(file.bytes))).toBe(true);
    const carOf = async (server: TestServer, key: Key) => (await gatewayGet(server, key, `/ipfs/${hamt.root.toString()}`, { query: { format: 'car' } })).bytes;
    expect((await carOf(b, b.owner)).equals(await carOf(a, a.owner))).toBe(true);
    const dagGet = async (server: TestServer, key: Key) => (await call(server, 'POST', '/api/v0/dag/get', { key, query: { arg: cbor.root.toString() } })).text;
    expect(await dagGet(b, b.owner)).toBe(await dagGet(a, a.owner));
    await expectHeld(b, b.owner, cbor);
    expect((await stats(b, b.owner)).ingress).toBe(file.dag.bytes + hamt.bytes + cbor.bytes);
  });

  it('shows the fetch in GET /api/v0/pin/<cid> and in pin events: no source until one answers, then blocks, bytes and the source', async () => {
    const slow = await gateway(hamt, { stall: true, trickleMs: 5 });
    const b = await fetchingServer([slow.url]);
    const events = await openEvents(b, b.owner);
    try {
      await pinAdd(b, b.owner, hamt.root.toString());
      const queued = await until('a fetch without a source', async () => {
        const pin = (await call<{ data: PinRecord }>(b, 'GET', `/api/v0/pin/${hamt.root.toString()}`, { key: b.owner })).json.data;
        return pin.fetch !== undefined ? pin : undefined;
      });
      expect(queued).toMatchObject({ status: 'pinning', fetch: { blocks: 0, bytes: 0, source: null } });
      slow.script.stall = false;
      const progress = await events.next('pin', (pin) => 'fetch' in pin && (pin.fetch?.blocks ?? 0) > 0, 20_000);
      expect(progress).toMatchObject({ cid: hamt.root.toString(), status: 'pinning', fetch: { source: slow.url } });
      const listed = await call<{ data: PinRecord[] }>(b, 'GET', '/api/v0/pin', { key: b.owner });
      expect(listed.json.data[0]?.cid).toBe(hamt.root.toString());
      const done = await pinReaches(b, b.owner, hamt.root.toString(), 'pinned');
      expect(done.fetch).toBeUndefined();
    } finally {
      events.close();
    }
  });

  it('a source that lies is caught: nothing of its bytes is stored or counted, it is asked nothing more, and an honest one completes the pin', async () => {
    const victim = cbor.blocks[4] as (typeof cbor.blocks)[number];
    const liar = await gateway(cbor, { lie: (cid) => (cid.equals(victim.cid) ? randomData(victim.bytes.byteLength) : undefined) });
    // The liar is first: it is asked for the CAR, and lies in it.
    const b = await fetchingServer([liar.url, a.url]);
    await pinAdd(b, b.owner, cbor.root.toString());
    await pinReaches(b, b.owner, cbor.root.toString(), 'pinned');
    expect(liar.carRequests()).toEqual([cbor.root.toString()]);
    expect(liar.blockRequests()).toEqual([]);
    await expectHeld(b, b.owner, cbor);
    expect((await stats(b, b.owner)).ingress).toBe(cbor.bytes);
  });

  it('honours a 429 Retry-After, then completes', async () => {
    let refused = 0;
    const busy = await gateway(cbor, { busy: () => (refused++ === 0 ? 1 : undefined) });
    const b = await fetchingServer([busy.url]);
    const started = Date.now();
    await pinAdd(b, b.owner, cbor.root.toString());
    await pinReaches(b, b.owner, cbor.root.toString(), 'pinned');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(busy.carRequests()).toEqual([cbor.root.toString(), cbor.root.toString()]);
  });

  it('gives up on a source that stalls and completes from another', async () => {
    const stalled = await gateway(cbor, { stall: true });
    const b = await fetchingServer([stalled.url, a.url]);
    await pinAdd(b, b.owner, cbor.root.toString());
    await pinReaches(b, b.owner, cbor.root.toString(), 'pinned');
    expect(stalled.requests.length).toBeGreaterThan(0);
    await expectHeld(b, b.owner, cbor);
  });

  it('resumes block by block from what arrived when a source dies mid-CAR, every block fetched and counted once', async () => {
    const dying = await gateway(hamt, { dieAfterBlocks: 40 });
    const b = await fetchingServer([dying.url]);
    await pinAdd(b, b.owner, hamt.root.toString());
    await pinReaches(b, b.owner, hamt.root.toString(), 'pinned');
    expect(dying.carRequests()).toEqual([hamt.root.toString()]);
    const asked = dying.blockRequests();
    expect(new Set(asked).size).toBe(asked.length);
    expect(asked.length).toBeLessThan(hamt.blocks.length);
    expect((await stats(b, b.owner)).ingress).toBe(hamt.bytes);
  });

  it('drops a CAR block the DAG does not link to: never stored, never counted', async () => {
    const stray = rawBlock(`stray ${randomUUID()}`);
    const junk = await gateway(cbor, { extraInCar: stray });
    const b = await fetchingServer([junk.url, a.url]);
    await pinAdd(b, b.owner, cbor.root.toString());
    await pinReaches(b, b.owner, cbor.root.toString(), 'pinned');
    await expectNotServed(b, b.owner, stray.cid.toString());
    expect((await stats(b, b.owner)).ingress).toBe(cbor.bytes);
  });

  it('finds a provider through a delegated routing endpoint when no gateway is set', async () => {
    const port = new URL(a.url).port;
    const routing = await startScriptedServer((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          Providers: [
            {
              Schema: 'peer',
              ID: '12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN',
              Addrs: [`/ip4/127.0.0.1/tcp/${port}/http`],
              Protocols: ['transport-ipfs-gateway-http'],
            },
          ],
        }),
      );
    });
    gateways.push(routing);
    const b = await fetchingServer([], { routing: [routing.url] });
    await pinAdd(b, b.owner, cbor.root.toString());
    await pinReaches(b, b.owner, cbor.root.toString(), 'pinned');
    expect(routing.requests[0]?.url).toMatch(new RegExp(`^/routing/v1/providers/${cbor.root.toString()}`));
    await expectHeld(b, b.owner, cbor);
  });

  it('past the plan ingress limit, the batch that would pass it is refused whole, the pin fails, and what is counted is exactly what is stored', async () => {
    const dataDir = await makeTempDir();
    dirs.push(dataDir);
    const limit = Math.floor(hamt.bytes / 2);
    await writeFile(
      join(dataDir, 'plans.json'),
      JSON.stringify([
        {
          id: 1,
          name: 'Small',
          price: '0.00',
          pinned_count_limit: 10,
          pinned_bytes_limit: 10 * MiB,
          ingress_limit: limit,
          egress_limit: 10 * MiB,
          ipns_limit: 1,
        },
      ]),
    );
    const b = await fetchingServer([a.url], { dataDir });
    const uuid = randomUUID();
    await createUser(b, b.owner, uuid);
    const user = await createUserKey(b, b.owner, uuid, 'admin', ['admin']);
    await pinAdd(b, user, hamt.root.toString());
    await pinReaches(b, user, hamt.root.toString(), 'failure');
    const ingress = (await stats(b, user)).ingress;
    expect(ingress).toBeGreaterThan(0);
    expect(ingress).toBeLessThanOrEqual(limit);
    expect(await heldBytes(b, user, hamt)).toBe(ingress);
  });

  it('a partial DAG under a pinning pin survives a GC cycle, and the fetch goes on without fetching it again', async () => {
    const slow = await gateway(hamt, { trickleMs: 15 });
    const b = await fetchingServer([slow.url], { gcGraceSeconds: 0 });
    await pinAdd(b, b.owner, hamt.root.toString());
    await until('a batch committed', async () => ((await stats(b, b.owner)).ingress > 0 ? true : undefined));
    const gc = await call<{ data: { blocks_deleted: number } }>(b, 'POST', '/api/v0/repo/gc', { key: b.owner });
    expect(gc.status).toBe(200);
    await pinReaches(b, b.owner, hamt.root.toString(), 'pinned');
    expect(slow.carRequests()).toEqual([hamt.root.toString()]);
    expect(slow.blockRequests()).toEqual([]);
    expect((await stats(b, b.owner)).ingress).toBe(hamt.bytes);
    await expectHeld(b, b.owner, hamt);
  });

  it('a change of the settings applies at once: offline nothing is asked, online the pin completes', async () => {
    const dataDir = await makeTempDir();
    dirs.push(dataDir);
    const source = await gateway(cbor);
    await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ version: 1, network: { fetch_from: [source.url], routing: [], offline: true } }));
    const b = await startTestServer({ dataDir }, {}, undefined, { fetchTuning: FAST, networkAsGiven: true });
    servers.push(b);
    await pinAdd(b, b.owner, cbor.root.toString());
    const pin = await call<{ data: PinRecord }>(b, 'GET', `/api/v0/pin/${cbor.root.toString()}`, { key: b.owner });
    expect(pin.json.data).toMatchObject({ status: 'pinning' });
    expect(source.requests).toEqual([]);
    expect((await call(b, 'POST', '/api/v0/settings/network', { key: b.owner, body: { offline: false } })).status).toBe(200);
    await pinReaches(b, b.owner, cbor.root.toString(), 'pinned');
    expect(source.carRequests()).toEqual([cbor.root.toString()]);
  });
});
