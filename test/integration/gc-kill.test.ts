import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { afterEach, describe, expect, it } from 'vitest';
import type { PinRecord } from '../../shared/api-types.js';
import { openDatabase, type Db } from '../../main/store/db/database.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';
import { call, makeTempDir } from '../helpers/test-server.js';
import { carImport, carV1, gatewayGet, randomData, stats, uploadCid, type Key, type Server } from './uploads-helpers.js';
import { until } from '../helpers/until.js';
import { sha256Cid } from '../helpers/raw-blocks.js';

type Block = { cid: CID; bytes: Uint8Array };

/** A root over `nodes` dag-pb nodes of `leaves` tiny raw leaves each: a DAG whose garbage takes many delete batches. */
function wideDag(nodes: number, leaves: number): { root: CID; blocks: Block[] } {
  const blocks: Block[] = [];
  const middles: CID[] = [];
  for (let n = 0; n < nodes; n++) {
    const links: dagPb.PBLink[] = [];
    for (let l = 0; l < leaves; l++) {
      const bytes = randomBytes(24);
      const cid = sha256Cid(raw.code, bytes);
      blocks.push({ cid, bytes });
      links.push({ Hash: cid, Name: '', Tsize: bytes.byteLength });
    }
    const node = dagPb.encode(dagPb.prepare({ Links: links }));
    const cid = sha256Cid(dagPb.code, node);
    blocks.push({ cid, bytes: node });
    middles.push(cid);
  }
  const rootNode = dagPb.encode(dagPb.prepare({ Links: middles.map((cid) => ({ Hash: cid, Name: '', Tsize: 0 })) }));
  const root = sha256Cid(dagPb.code, rootNode);
  return { root, blocks: [{ cid: root, bytes: rootNode }, ...blocks] };
}

function storedBlocks(db: Db): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM blocks').get() as { n: number }).n;
}

async function pins(server: Server, key: Key): Promise<PinRecord[]> {
  const response = await call<{ data: PinRecord[] }>(server, 'GET', '/api/v0/pin', { key, query: { limit: 1000 } });
  expect(response.status).toBe(200);
  return response.json.data;
}

describe('garbage collection killed with kill -9 while it deletes (contract section 6)', () => {
  const running: ServeProcess[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const proc of running.splice(0)) {
      if (proc.child.exitCode === null && proc.child.signalCode === null) {
        proc.child.kill('SIGKILL');
        await proc.exited();
      }
    }
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it('leaves no pin that claims a deleted block, counters exact, and the next cycle finishes the work', async () => {
    const dataDir = await makeTempDir('pinfold-gc-kill-');
    dirs.push(dataDir);
    const first = startServe(['--data', dataDir, '--port', '0', '--gc-grace', '0']);
    running.push(first);
    const server = { url: await first.listening() };
    const owner = JSON.parse(readFileSync(join(dataDir, 'owner-key.json'), 'utf8')) as Key;

    const keptData = randomData(5000);
    const kept = await uploadCid(server, owner, keptData);
    expect((await call(server, 'POST', '/api/v0/pin/add', { key: owner, query: { arg: kept } })).status).toBe(200);
    // 60 delete batches of garbage once its pin is removed.
    const wide = wideDag(60, 1000);
    expect((await carImport(server, owner, await carV1([wide.root], wide.blocks))).status).toBe(200);
    expect((await call(server, 'POST', '/api/v0/pin/rm', { key: owner, query: { arg: wide.root.toString() } })).status).toBe(200);

    const db = openDatabase(join(dataDir, 'pinfold.db'), { readonly: true });
    let answered = false;
    try {
      const before = storedBlocks(db);
      const gc = call(server, 'POST', '/api/v0/repo/gc', { key: owner }).then(
        () => (answered = true),
        () => undefined,
      );
      // The moment the first batch of deletions is committed, the server dies.
      await until('the first delete batch', async () => (storedBlocks(db) < before ? true : undefined), 60_000);
      first.child.kill('SIGKILL');
      await first.exited();
      await gc;
    } finally {
      db.close();
    }
    // The kill came while the cycle was still at work (it never answered).
    expect(answered).toBe(false);

    const second = startServe(['--data', dataDir, '--port', '0', '--gc-grace', '0']);
    running.push(second);
    const restarted = { url: await second.listening() };
    // The unpinned pin went before any block did; the pin left reaches only blocks that are held.
    const left = await pins(restarted, owner);
    expect(left.map((pin) => [pin.cid, pin.status])).toEqual([[kept, 'pinned']]);
    const usage = await stats(restarted, owner);
    expect({ count: usage.pinned_count, bytes: usage.pinned_bytes }).toEqual({ count: 1, bytes: 5000 });
    // Pinning the half-deleted DAG again waits for its blocks instead of claiming them.
    expect((await call(restarted, 'POST', '/api/v0/pin/add', { key: owner, query: { arg: wide.root.toString() } })).status).toBe(200);
    const readded = await call<{ data: PinRecord }>(restarted, 'GET', `/api/v0/pin/${wide.root.toString()}`, { key: owner });
    expect(readded.json.data).toMatchObject({ status: 'pinning', size: 0 });
    expect((await call(restarted, 'POST', '/api/v0/pin/rm', { key: owner, query: { arg: wide.root.toString() } })).status).toBe(200);

    const gc = await call<{ data: { pins_removed: number; blocks_deleted: number } }>(restarted, 'POST', '/api/v0/repo/gc', { key: owner });
    expect(gc.status).toBe(200);
    expect(gc.json.data.pins_removed).toBe(1);
    expect(gc.json.data.blocks_deleted).toBeGreaterThan(0);
    const kept2 = await gatewayGet(restarted, owner, `/ipfs/${kept}`);
    expect(kept2.status).toBe(200);
    expect(Buffer.compare(kept2.bytes, Buffer.from(keptData))).toBe(0);
    expect((await gatewayGet(restarted, owner, `/ipfs/${wide.root.toString()}`, { query: { format: 'raw' } })).status).toBe(404);
    expect(await stats(restarted, owner)).toMatchObject({ pinned_count: 1, pinned_bytes: 5000 });
  });
});
