import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../main/store/db/database.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';
import { call, makeTempDir } from '../helpers/test-server.js';
import { startTrustlessGateway, type TestGateway } from '../helpers/trustless-gateway.js';
import { cborDag, expectHeld, folderDag, hamtDag, pinAdd, pinReaches, scanPacks, type TestDag } from './network-fetch-helpers.js';
import { blockBytes, carImport, carV1, fileDag, gatewayGet, MiB, randomData, stats, uploadCid, type Key, type Server } from './uploads-helpers.js';
import { until } from '../helpers/until.js';

/**
 * Issue 23, part 3, on real processes: two `pinfold serve` on loopback, A with `--public-gateway` holding
 * content, B with `--fetch-from` A and `--routing` an endpoint that names A as a provider. And B killed
 * with kill -9 mid-fetch: on restart nothing is stored twice or torn, and the pin completes.
 */

const PEER = '12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN';

/** A Delegated Routing V1 endpoint that names `gateway` (a loopback URL) as the HTTP provider of every CID. */
async function routingTo(gateway: string | null): Promise<ScriptedServer> {
  return startScriptedServer((_request, response) => {
    if (gateway === null) {
      response.writeHead(404);
      response.end();
      return;
    }
    const port = new URL(gateway).port;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ Providers: [{ Schema: 'peer', ID: PEER, Addrs: [`/ip4/127.0.0.1/tcp/${port}/http`], Protocols: ['transport-ipfs-gateway-http'] }] }),
    );
  });
}

function ownerOf(dataDir: string): Key {
  return JSON.parse(readFileSync(join(dataDir, 'owner-key.json'), 'utf8')) as Key;
}

describe('pinfold serve fetches pins from another pinfold serve (issue 23)', () => {
  const processes: ServeProcess[] = [];
  const servers: (ScriptedServer | TestGateway)[] = [];
  const dirs: string[] = [];

  async function serve(args: string[]): Promise<{ server: Server; proc: ServeProcess }> {
    const proc = startServe(args);
    processes.push(proc);
    return { server: { url: await proc.listening(60_000) }, proc };
  }

  async function dataDir(): Promise<string> {
    const dir = await makeTempDir('pinfold-fetch-serve-');
    dirs.push(dir);
    return dir;
  }

  afterEach(async () => {
    for (const proc of processes.splice(0)) {
      if (proc.child.exitCode === null && proc.child.signalCode === null) {
        proc.child.kill('SIGKILL');
        await proc.exited();
      }
    }
    for (const server of servers.splice(0)) await server.close();
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  describe('a 64 MiB file, a 10,000-file folder and a dag-cbor DAG', () => {
    let aDir: string;
    let a: Server;
    let aOwner: Key;
    let aProc: ServeProcess | undefined;
    let file: { cid: string; bytes: Uint8Array; dagBytes: number };
    let folder: TestDag;
    let cbor: TestDag;

    beforeAll(async () => {
      aDir = await makeTempDir('pinfold-fetch-a-');
      aProc = startServe(['--data', aDir, '--port', '0', '--public-gateway']);
      a = { url: await aProc.listening(60_000) };
      aOwner = ownerOf(aDir);
      const bytes = randomData(64 * MiB);
      file = { cid: await uploadCid(a, aOwner, bytes), bytes, dagBytes: blockBytes((await fileDag(bytes)).blocks) };
      folder = await folderDag(10_000);
      expect((await carImport(a, aOwner, await carV1([folder.root], folder.blocks))).status).toBe(200);
      cbor = cborDag('on A');
      expect((await carImport(a, aOwner, await carV1([cbor.root], cbor.blocks))).status).toBe(200);
    });
    afterAll(async () => {
      aProc?.child.kill('SIGTERM');
      await aProc?.exited();
      await rm(aDir, { recursive: true, force: true });
    });

    it('B pins them from A and serves them whole, their bytes counted once as its ingress', async () => {
      const routing = await routingTo(a.url);
      servers.push(routing);
      const bDir = await dataDir();
      const { server: b } = await serve(['--data', bDir, '--port', '0', '--fetch-from', a.url, '--routing', routing.url]);
      const bOwner = ownerOf(bDir);
      const cids = [file.cid, folder.root.toString(), cbor.root.toString()];
      for (const cid of cids) await pinAdd(b, bOwner, cid);
      for (const cid of cids) await pinReaches(b, bOwner, cid, 'pinned', 180_000);

      expect((await gatewayGet(b, bOwner, `/ipfs/${file.cid}`)).bytes.equals(Buffer.from(file.bytes))).toBe(true);
      const carOf = async (server: Server, key: Key) => (await gatewayGet(server, key, `/ipfs/${folder.root.toString()}`, { query: { format: 'car' } })).bytes;
      expect((await carOf(b, bOwner)).equals(await carOf(a, aOwner))).toBe(true);
      const listing = await gatewayGet(b, bOwner, `/ipfs/${folder.root.toString()}/file-09999.txt`);
      expect(listing.bytes.toString('utf8')).toBe('file 9999 of 10000\n');
      const dagGet = async (server: Server, key: Key) => (await call(server, 'POST', '/api/v0/dag/get', { key, query: { arg: cbor.root.toString() } })).text;
      expect(await dagGet(b, bOwner)).toBe(await dagGet(a, aOwner));
      await expectHeld(b, bOwner, cbor);
      expect((await stats(b, bOwner)).ingress).toBe(file.dagBytes + folder.bytes + cbor.bytes);
    });
  });

  it('kill -9 of B mid-fetch: on restart the pin completes, every block stored and counted once, no torn record', async () => {
    const hamt = await hamtDag();
    // A gateway that trickles, so the kill lands between B's batches.
    const trickle = await startTrustlessGateway(hamt.blocks, { trickleMs: 40 });
    servers.push(trickle);
    const routing = await routingTo(null);
    servers.push(routing);
    const bDir = await dataDir();
    const args = ['--data', bDir, '--port', '0', '--fetch-from', trickle.url, '--routing', routing.url];
    const first = await serve(args);
    const bOwner = ownerOf(bDir);
    await pinAdd(first.server, bOwner, hamt.root.toString());
    const partial = await until('a batch committed', async () => {
      const ingress = (await stats(first.server, bOwner)).ingress;
      return ingress > 0 ? ingress : undefined;
    });
    first.proc.child.kill('SIGKILL');
    await first.proc.exited();
    expect(partial).toBeLessThan(hamt.bytes);
    const askedBefore = trickle.blockRequests().length + trickle.carRequests().length;

    trickle.script.trickleMs = 0;
    const second = await serve(args);
    await pinReaches(second.server, bOwner, hamt.root.toString(), 'pinned', 60_000);
    // Resumed from what was held: the root was kept, so no CAR again, and each missing block asked once.
    const after = [...trickle.carRequests(), ...trickle.blockRequests()].slice(askedBefore);
    expect(after).not.toContain(hamt.root.toString());
    expect(new Set(after).size).toBe(after.length);
    expect((await stats(second.server, bOwner)).ingress).toBe(hamt.bytes);
    await expectHeld(second.server, bOwner, hamt);

    second.proc.child.kill('SIGTERM');
    expect(await second.proc.exited()).toBe(0);
    // Reopened: one index row per multihash, every pack record whole, hashing right, and indexed.
    const db = openDatabase(join(bDir, 'pinfold.db'));
    try {
      const rows = db.prepare('SELECT lower(hex(multihash)) AS multihash FROM blocks').all() as { multihash: string }[];
      const inPacks = await scanPacks(join(bDir, 'blocks'));
      expect(inPacks.sort()).toEqual(rows.map((row) => row.multihash).sort());
    } finally {
      db.close();
    }
  });
});
