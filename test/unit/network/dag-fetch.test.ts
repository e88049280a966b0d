import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CarBlockIterator } from '@ipld/car';
import { importer } from 'ipfs-unixfs-importer';
import type { CID } from 'multiformats/cid';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../main/base/errors.js';
import { createLogger } from '../../../main/base/logger.js';
import { SettingsFile } from '../../../main/base/settings-file.js';
import { walkDag } from '../../../main/content/walk/walk-dag.js';
import { UnfetchableDagError } from '../../../main/network/fetch-errors.js';
import type { FetchTuning } from '../../../main/network/fetch-tuning.js';
import { createNetworkFetcher, type NetworkFetcher } from '../../../main/network/network-fetcher.js';
import { openNetworkSettings, type NetworkFlags, type NetworkSettings } from '../../../main/network/settings.js';
import { openBlockstore, type PinfoldBlockstore } from '../../../main/store/blockstore/blockstore.js';
import { brokenDagPb } from '../../helpers/unreadable-blocks.js';
import { blockKey, blocksOfCar, dfsBlocks, startTrustlessGateway, type GatewayBlock, type TestGateway } from '../../helpers/trustless-gateway.js';
import { startScriptedServer, type ScriptedServer } from '../../helpers/scripted-server.js';
import { tempDir } from '../../helpers/temp-dirs.js';
import { rawBlock } from '../../helpers/raw-blocks.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/gateway-conformance/fixtures/', import.meta.url));
const HAMT = 'trustless_gateway_car/single-layer-hamt-with-multi-block-files.car';
const DAG_CBOR = 'path_gateway_dag/dag-cbor-traversal.car';
const DAG_JSON = 'path_gateway_dag/dag-json-traversal.car';

/** Short waits: a stall or a cool-down in a test is a fraction of a second. */
const FAST: Partial<FetchTuning> = {
  firstByteTimeoutMs: 400,
  idleTimeoutMs: 400,
  backoffBaseMs: 20,
  backoffMaxMs: 100,
  asideMs: 100,
  asideMaxMs: 400,
  wrongBlockAsideMs: 60_000,
  roundDelayMs: 50,
  roundDelayMaxMs: 200,
  batchBlocks: 4,
  batchMs: 100,
};

interface Dag {
  root: CID;
  blocks: GatewayBlock[];
  bytes: number;
}

async function fixtureDag(path: string): Promise<Dag> {
  const bytes = await readFile(join(FIXTURES, path));
  const iterator = await CarBlockIterator.fromBytes(bytes);
  const [root] = await iterator.getRoots();
  const all = new Map((await blocksOfCar(bytes)).map((block) => [blockKey(block.cid), block]));
  const blocks = dfsBlocks(all, root as CID);
  return { root: root as CID, blocks, bytes: blocks.reduce((sum, block) => sum + block.bytes.byteLength, 0) };
}

/**
 * A folder of `dirs` subfolders of `files` small files each, imported as Kubo would (CIDv1, raw leaves);
 * `edit` changes one file's text. Blocks in import order, each once.
 */
async function folderVersion(dirs: number, files: number, edit?: { dir: number; file: number; text: string }): Promise<Dag> {
  const blocks = new Map<string, GatewayBlock>();
  const sink = {
    async put(cid: CID, data: Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<CID> {
      if (!(data instanceof Uint8Array)) throw new TypeError('expected bytes');
      blocks.set(blockKey(cid), { cid, bytes: data.slice() });
      return cid;
    },
  };
  const entries = Array.from({ length: dirs * files }, (_, i) => {
    const [d, f] = [Math.floor(i / files), i % files];
    const text = edit?.dir === d && edit.file === f ? edit.text : `file ${f} of folder ${d}\n`;
    return { path: `dir-${d}/file-${f}.txt`, content: [new TextEncoder().encode(text)] };
  });
  let root: CID | undefined;
  for await (const entry of importer(entries, sink, { cidVersion: 1, rawLeaves: true, wrapWithDirectory: true })) root = entry.cid;
  if (root === undefined) throw new Error('importer gave no root');
  const ordered = dfsBlocks(blocks, root);
  return { root, blocks: ordered, bytes: ordered.reduce((sum, block) => sum + block.bytes.byteLength, 0) };
}

let dir: string;
let cleanup: () => Promise<void>;
let store: PinfoldBlockstore;
let settings: NetworkSettings;
let fetcher: NetworkFetcher;
let servers: ScriptedServer[];

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('pinfold-fetch-'));
  store = await openBlockstore(join(dir, 'blocks'));
  servers = [];
});

afterEach(async () => {
  fetcher?.close();
  await Promise.all(servers.map((server) => server.close()));
  await store.close();
  await cleanup();
});

async function online(
  flags: NetworkFlags,
  tuning: Partial<FetchTuning> = FAST,
  routing?: Parameters<typeof createNetworkFetcher>[0]['routing'],
): Promise<void> {
  // Saved settings, not flags: a test may change them as the Settings page does.
  settings = await openNetworkSettings(new SettingsFile(join(dir, 'settings.json')));
  await settings.update({ routing: [], offline: false, fetchFrom: [], ...flags });
  fetcher = createNetworkFetcher({ settings, blocks: store, logger: createLogger('silent'), tuning, ...(routing ? { routing } : {}) });
}

async function gateway(blocks: Iterable<GatewayBlock>, script: Parameters<typeof startTrustlessGateway>[1] = {}): Promise<TestGateway> {
  const server = await startTrustlessGateway(blocks, script);
  servers.push(server);
  return server;
}

async function expectWhole(dag: Dag): Promise<void> {
  const summary = await walkDag(store, dag.root);
  expect(summary).toEqual({ blocks: dag.blocks.length, bytes: dag.bytes, missing: [], unreadable: [] });
}

/** The fetcher again, over `blocks` instead of the store. */
function useStore(blocks: PinfoldBlockstore): void {
  fetcher.close();
  fetcher = createNetworkFetcher({ settings, blocks, logger: createLogger('silent'), tuning: FAST });
}

/** The store, with `after` run once each findBlock or blockSize has answered (before the caller sees it). */
function watchedLookups(target: PinfoldBlockstore, after: (cid: CID) => Promise<void>): PinfoldBlockstore {
  return new Proxy(target, {
    get(inner, key) {
      const value: unknown = Reflect.get(inner, key, inner);
      if (typeof value !== 'function') return value;
      if (key !== 'findBlock' && key !== 'blockSize') return (value as (...args: unknown[]) => unknown).bind(inner);
      return async (cid: CID, ...rest: unknown[]) => {
        const answer: unknown = await Reflect.apply(value, inner, [cid, ...rest]);
        await after(cid);
        return answer;
      };
    },
  });
}

describe('fetchDag', () => {
  it('takes a DAG it lacks whole as one CAR, verified, committed in batches whose bytes add up to the DAG', async () => {
    const dag = await fixtureDag(HAMT);
    const gw = await gateway(dag.blocks);
    await online({ fetchFrom: [gw.url] });
    const committed: number[] = [];
    const progress: (string | null)[] = [];
    const result = await fetcher.fetchDag(dag.root, {
      onCommit: async (_tx, stored) => void committed.push(stored.bytes),
      onProgress: (p) => progress.push(p.source),
    });
    expect(result).toEqual({ blocks: dag.blocks.length, bytes: dag.bytes, dagBytes: dag.bytes });
    expect(gw.carRequests()).toEqual([dag.root.toString()]);
    expect(gw.blockRequests()).toEqual([]);
    expect(committed.length).toBeGreaterThan(1);
    expect(committed.reduce((a, b) => a + b, 0)).toBe(dag.bytes);
    expect(new Set(progress)).toEqual(new Set([gw.url]));
    await expectWhole(dag);
  });

  it.each([DAG_CBOR, DAG_JSON])('walks %s through its links, block by block from a gateway without CARs', async (path) => {
    const dag = await fixtureDag(path);
    const gw = await gateway(dag.blocks, { car: 'refuse' });
    await online({ fetchFrom: [gw.url] });
    await fetcher.fetchDag(dag.root);
    expect(gw.carRequests()).toEqual([dag.root.toString()]);
    expect(gw.blockRequests().sort()).toEqual(dag.blocks.map((block) => block.cid.toString()).sort());
    await expectWhole(dag);
  });

  it('commits every batch inside commitUnder (a GC cycle cannot fall between a batch and its commit)', async () => {
    const dag = await fixtureDag(HAMT);
    const gw = await gateway(dag.blocks);
    await online({ fetchFrom: [gw.url] });
    const steps: string[] = [];
    await fetcher.fetchDag(dag.root, {
      commitUnder: async (commit) => {
        steps.push('hold');
        const done = await commit();
        steps.push('release');
        return done;
      },
      onCommit: async () => void steps.push('commit'),
    });
    expect(steps.length).toBeGreaterThanOrEqual(3);
    expect(steps.join(' ')).toMatch(/^(hold commit release ?)+$/);
    await expectWhole(dag);
  });

  it('asks only for the blocks it lacks when part of the DAG is held, and no CAR', async () => {
    const dag = await fixtureDag(HAMT);
    const held = dag.blocks.filter((_block, i) => i % 3 !== 1);
    for (const block of held) await store.put(block.cid, block.bytes);
    const gw = await gateway(dag.blocks);
    await online({ fetchFrom: [gw.url] });
    let charged = 0;
    await fetcher.fetchDag(dag.root, { onCommit: async (_tx, stored) => void (charged += stored.bytes) });
    const missing = dag.blocks.filter((_block, i) => i % 3 === 1);
    expect(gw.carRequests()).toEqual([]);
    expect(gw.blockRequests().sort()).toEqual(missing.map((block) => block.cid.toString()).sort());
    expect(charged).toBe(missing.reduce((sum, block) => sum + block.bytes.byteLength, 0));
    await expectWhole(dag);
  });

  it("knows the DAG's size from its own pass over held and fetched blocks: no closing walk of the whole DAG", async () => {
    const dag = await fixtureDag(HAMT);
    for (const block of dag.blocks.filter((_block, i) => i % 2 === 0)) await store.put(block.cid, block.bytes);
    const gw = await gateway(dag.blocks);
    await online({ fetchFrom: [gw.url] });
    let lookups = 0;
    useStore(
      watchedLookups(store, async () => {
        lookups++;
      }),
    );
    const result = await fetcher.fetchDag(dag.root);
    expect(result.dagBytes).toBe(dag.bytes);
    // Each block looked up once as the pass reaches it (a walk after would look up every block again).
    expect(lookups).toBeLessThanOrEqual(dag.blocks.length);
    await expectWhole(dag);
  });

  it('walks the DAG again when a block it found held left the store during the fetch, and fetches it back', async () => {
    const dag = await fixtureDag(HAMT);
    const gone = dag.blocks.find((block) => block.cid.code === 0x55);
    if (gone === undefined) throw new Error('no leaf to collect');
    await store.put(gone.cid, gone.bytes);
    const gw = await gateway(dag.blocks, { car: 'refuse' });
    await online({ fetchFrom: [gw.url] });
    let collected = false;
    // Garbage collection takes the leaf just after the pass found it held.
    useStore(
      watchedLookups(store, async (cid) => {
        if (collected || !cid.equals(gone.cid)) return;
        collected = true;
        expect(await store.deleteMultihashes([gone.cid.multihash.bytes])).toBe(1);
      }),
    );
    const result = await fetcher.fetchDag(dag.root);
    expect(collected).toBe(true);
    expect(gw.blockRequests()).toContain(gone.cid.toString());
    expect(result.dagBytes).toBe(dag.bytes);
    await expectWhole(dag);
  });

  it('with stopAtHeld, asks only for the blocks a new version adds (no CAR), stopping at every held subtree', async () => {
    const older = await folderVersion(4, 50);
    const newer = await folderVersion(4, 50, { dir: 2, file: 7, text: 'changed\n' });
    for (const block of older.blocks) await store.put(block.cid, block.bytes);
    const gw = await gateway([...older.blocks, ...newer.blocks]);
    await online({ fetchFrom: [gw.url] });
    let charged = 0;
    const result = await fetcher.fetchDag(newer.root, { stopAtHeld: true, onCommit: async (_tx, stored) => void (charged += stored.bytes) });
    const held = new Set(older.blocks.map((block) => blockKey(block.cid)));
    const added = newer.blocks.filter((block) => !held.has(blockKey(block.cid)));
    // The root, the changed folder and the changed file: the other three folders and 199 files are held.
    expect(added).toHaveLength(3);
    expect(gw.carRequests()).toEqual([]);
    expect(gw.blockRequests().sort()).toEqual(added.map((block) => block.cid.toString()).sort());
    expect(result.blocks).toBe(3);
    expect(charged).toBe(added.reduce((sum, block) => sum + block.bytes.byteLength, 0));
    await expectWhole(newer);
  });

  it('with stopAtHeld, trusts a held subtree that has a hole (the caller checks after); without it, the hole is fetched', async () => {
    const older = await folderVersion(2, 20);
    const newer = await folderVersion(2, 20, { dir: 0, file: 0, text: 'changed\n' });
    // A file of the unchanged folder was never stored (a crash mid-fetch of the older version, say).
    const hole = older.blocks.filter((block) => block.cid.code === 0x55 && newer.blocks.some((b) => b.cid.equals(block.cid))).at(-1);
    if (hole === undefined) throw new Error('no file block to leave out');
    for (const block of older.blocks) if (!block.cid.equals(hole.cid)) await store.put(block.cid, block.bytes);
    const gw = await gateway([...older.blocks, ...newer.blocks]);
    await online({ fetchFrom: [gw.url] });
    await fetcher.fetchDag(newer.root, { stopAtHeld: true });
    expect(gw.blockRequests()).not.toContain(hole.cid.toString());
    expect((await walkDag(store, newer.root)).missing.map(String)).toEqual([hole.cid.toString()]);
    await fetcher.fetchDag(newer.root);
    expect(gw.blockRequests()).toContain(hole.cid.toString());
    await expectWhole(newer);
  });

  it('spreads block requests over several sources', async () => {
    const dag = await fixtureDag(HAMT);
    const first = await gateway(dag.blocks, { car: 'refuse', trickleMs: 5 });
    const second = await gateway(dag.blocks, { car: 'refuse', trickleMs: 5 });
    // Timeouts long enough that a loaded machine never retries a block: each is asked once, of one source.
    await online({ fetchFrom: [first.url, second.url] }, { ...FAST, perSourceConcurrency: 2, firstByteTimeoutMs: 30_000, idleTimeoutMs: 30_000 });
    await fetcher.fetchDag(dag.root);
    expect(first.blockRequests().length).toBeGreaterThan(0);
    expect(second.blockRequests().length).toBeGreaterThan(0);
    expect(first.blockRequests().length + second.blockRequests().length).toBe(dag.blocks.length);
    await expectWhole(dag);
  });

  it('drops a block with the wrong bytes, stores nothing of it, sets the liar aside, and completes from an honest source', async () => {
    const dag = await fixtureDag(HAMT);
    const victim = dag.blocks[3] as GatewayBlock;
    const lies = new Uint8Array(victim.bytes.byteLength).fill(7);
    const liar = await gateway(dag.blocks, { car: 'refuse', lie: (cid) => (cid.equals(victim.cid) ? lies : undefined) });
    // One request at a time: the lie is judged before the liar could be asked anything else.
    await online({ fetchFrom: [liar.url] }, { ...FAST, perSourceConcurrency: 1 });
    const running = fetcher.fetchDag(dag.root);
    await expect.poll(() => liar.blockRequests().includes(victim.cid.toString()), { timeout: 5000 }).toBe(true);
    const asked = liar.blockRequests().length;
    // Set aside: the liar is asked nothing more; an honest source added to the settings finishes the DAG.
    const honest = await gateway(dag.blocks, { car: 'refuse' });
    await settings.update({ fetchFrom: [liar.url, honest.url] });
    await running;
    expect(liar.blockRequests().length).toBe(asked);
    expect(honest.blockRequests()).toContain(victim.cid.toString());
    expect(Buffer.from(await store.getBlock(victim.cid)).equals(Buffer.from(victim.bytes))).toBe(true);
    await expectWhole(dag);
  });

  it('drops a CAR block with the wrong bytes, keeps what came before it, and goes on from another source', async () => {
    const dag = await fixtureDag(HAMT);
    const victim = dag.blocks[5] as GatewayBlock;
    const liar = await gateway(dag.blocks, { lie: (cid) => (cid.equals(victim.cid) ? new Uint8Array([1, 2, 3]) : undefined) });
    const honest = await gateway(dag.blocks, { car: 'refuse' });
    await online({ fetchFrom: [liar.url, honest.url] }, { ...FAST, perSourceConcurrency: 1 });
    await fetcher.fetchDag(dag.root);
    expect(liar.carRequests()).toEqual([dag.root.toString()]);
    expect(liar.blockRequests()).toEqual([]);
    // The blocks before the lie came in the CAR; the honest source was asked for the rest only.
    const fromHonest = new Set(honest.blockRequests());
    for (const block of dag.blocks.slice(0, 5)) expect(fromHonest.has(block.cid.toString())).toBe(false);
    expect(fromHonest.has(victim.cid.toString())).toBe(true);
    await expectWhole(dag);
  });

  it('drops a CAR block the DAG does not link to and never stores it', async () => {
    const dag = await fixtureDag(DAG_CBOR);
    const stray = rawBlock('not part of this DAG');
    const junk = await gateway(dag.blocks, { extraInCar: stray });
    const honest = await gateway(dag.blocks, { car: 'refuse' });
    await online({ fetchFrom: [junk.url, honest.url] });
    await fetcher.fetchDag(dag.root);
    expect(await store.has(stray.cid)).toBe(false);
    expect(junk.blockRequests()).toEqual([]);
    await expectWhole(dag);
  });

  it("waits what a 429's Retry-After says, then completes", async () => {
    const dag = await fixtureDag(DAG_JSON);
    let refusals = 0;
    const gw = await gateway(dag.blocks, { busy: () => (refusals++ === 0 ? 1 : undefined) });
    await online({ fetchFrom: [gw.url] });
    const started = performance.now();
    await fetcher.fetchDag(dag.root);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(gw.carRequests()).toEqual([dag.root.toString(), dag.root.toString()]);
    await expectWhole(dag);
  });

  it('gives up on a source that stalls and moves on', async () => {
    const dag = await fixtureDag(DAG_CBOR);
    const stalled = await gateway(dag.blocks, { stall: true });
    const honest = await gateway(dag.blocks);
    await online({ fetchFrom: [stalled.url, honest.url] });
    await fetcher.fetchDag(dag.root);
    expect(stalled.carRequests().length + stalled.blockRequests().length).toBeGreaterThan(0);
    await expectWhole(dag);
  });

  it('resumes block by block, from what arrived, when a CAR dies mid-way', async () => {
    const dag = await fixtureDag(HAMT);
    const gw = await gateway(dag.blocks, { dieAfterBlocks: 4 });
    await online({ fetchFrom: [gw.url] });
    const result = await fetcher.fetchDag(dag.root);
    expect(gw.carRequests()).toEqual([dag.root.toString()]);
    const asked = gw.blockRequests();
    // Some came in the CAR (the root first), the rest one request each, and no block arrived twice.
    expect(asked).not.toContain(dag.root.toString());
    expect(new Set(asked).size).toBe(asked.length);
    expect(asked.length).toBeGreaterThanOrEqual(dag.blocks.length - 4);
    expect(result.blocks).toBe(dag.blocks.length);
    await expectWhole(dag);
  });

  it('stores nothing of a batch its commit refuses, and ends with the refusal', async () => {
    const dag = await fixtureDag(HAMT);
    const gw = await gateway(dag.blocks);
    // Batches by count only: on a loaded machine a batch's time limit could close one short of 4 blocks.
    await online({ fetchFrom: [gw.url] }, { ...FAST, batchMs: 60_000 });
    let commits = 0;
    const refusal = new Error('over the plan');
    await expect(
      fetcher.fetchDag(dag.root, {
        onCommit: async () => {
          if (++commits === 2) throw refusal;
        },
      }),
    ).rejects.toBe(refusal);
    const summary = await walkDag(store, dag.root);
    // The first batch (4 blocks) stayed; nothing after it.
    expect(summary.blocks).toBe(4);
    // The refusal ends the fetch: not taken for the CAR's failure, so nothing is asked block by block.
    expect(gw.carRequests()).toEqual([dag.root.toString()]);
    expect(gw.blockRequests()).toEqual([]);
  });

  it('refuses a DAG with a block it cannot follow, at once', async () => {
    const broken = await brokenDagPb();
    const gw = await gateway([broken]);
    await online({ fetchFrom: [gw.url] });
    await expect(fetcher.fetchDag(broken.cid)).rejects.toBeInstanceOf(UnfetchableDagError);
    expect(await store.has(broken.cid)).toBe(false);
  });

  it('offline, sends nothing and waits until a source is allowed', async () => {
    const dag = await fixtureDag(DAG_CBOR);
    const gw = await gateway(dag.blocks);
    settings = await openNetworkSettings(new SettingsFile(join(dir, 'settings.json')));
    await settings.update({ fetchFrom: [gw.url], routing: [], offline: true });
    fetcher = createNetworkFetcher({ settings, blocks: store, logger: createLogger('silent'), tuning: FAST });
    expect(fetcher.online()).toBe(false);
    const running = fetcher.fetchDag(dag.root);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(gw.requests).toEqual([]);
    await settings.update({ offline: false });
    await running;
    await expectWhole(dag);
  });

  it('ends when its signal does, with nothing half-stored', async () => {
    const dag = await fixtureDag(HAMT);
    const gw = await gateway(dag.blocks, { trickleMs: 50 });
    await online({ fetchFrom: [gw.url] }, { ...FAST, batchBlocks: 1000, batchMs: 60_000 });
    const controller = new AbortController();
    const running = fetcher.fetchDag(dag.root, { signal: controller.signal, onProgress: (p) => p.blocks === 3 && controller.abort(new Error('stop')) });
    await expect(running).rejects.toThrow('stop');
    expect((await walkDag(store, dag.root)).blocks).toBe(0);
  });

  it('finds providers through routing when no gateway is set', async () => {
    const dag = await fixtureDag(DAG_JSON);
    const gw = await gateway(dag.blocks);
    const asked: string[] = [];
    await online({ fetchFrom: [] }, FAST, {
      async *gatewayProviders(cid) {
        asked.push(cid.toString());
        yield gw.url;
      },
    });
    await fetcher.fetchDag(dag.root);
    expect(asked[0]).toBe(dag.root.toString());
    await expectWhole(dag);
  });

  it('asks routing nothing when the gateways serve the DAG', async () => {
    const dag = await fixtureDag(DAG_JSON);
    const holding = await gateway(dag.blocks);
    const asked: string[] = [];
    await online({ fetchFrom: [holding.url] }, FAST, {
      async *gatewayProviders(cid) {
        asked.push(cid.toString());
        yield holding.url;
      },
    });
    await fetcher.fetchDag(dag.root);
    await expectWhole(dag);
    expect(asked).toEqual([]);
  });

  it('asks routing for providers once the gateways lack the DAG', async () => {
    const dag = await fixtureDag(DAG_JSON);
    const holding = await gateway(dag.blocks);
    const lacking = await gateway([]);
    const asked: string[] = [];
    await online({ fetchFrom: [lacking.url] }, FAST, {
      async *gatewayProviders(cid) {
        asked.push(cid.toString());
        yield holding.url;
      },
    });
    await fetcher.fetchDag(dag.root);
    await expectWhole(dag);
    expect(asked).toEqual([dag.root.toString()]);
    expect(lacking.requests.length).toBeGreaterThan(0);
  });
});

describe('fetchBlock', () => {
  it('returns the verified bytes of the first source that has the block', async () => {
    const block = rawBlock('one block');
    const lacking = await gateway([]);
    const holding = await gateway([block]);
    await online({ fetchFrom: [lacking.url, holding.url] });
    expect(Buffer.from(await fetcher.fetchBlock(block.cid)).equals(Buffer.from(block.bytes))).toBe(true);
    expect(await store.has(block.cid)).toBe(false);
  });

  it('never returns wrong bytes: NotFoundError when only a liar has it', async () => {
    const block = rawBlock('one block');
    const liar = await gateway([block], { lie: () => new Uint8Array([0]) });
    await online({ fetchFrom: [liar.url] });
    await expect(fetcher.fetchBlock(block.cid)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('asks routing for providers when the gateways lack it, and nothing at all offline', async () => {
    const block = rawBlock('provided');
    const provider = await gateway([block]);
    const routing = await startScriptedServer((_request, response) => {
      response.writeHead(500);
      response.end();
    });
    servers.push(routing);
    await online({ fetchFrom: [] }, FAST, {
      async *gatewayProviders() {
        yield provider.url;
      },
    });
    expect(Buffer.from(await fetcher.fetchBlock(block.cid)).equals(Buffer.from(block.bytes))).toBe(true);
    await settings.update({ offline: true });
    const before = provider.requests.length;
    await expect(fetcher.fetchBlock(block.cid)).rejects.toBeInstanceOf(NotFoundError);
    expect(provider.requests.length).toBe(before);
  });
});
