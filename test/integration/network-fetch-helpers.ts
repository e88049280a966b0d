import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as dagCbor from '@ipld/dag-cbor';
import * as dagJson from '@ipld/dag-json';
import { CarBlockIterator } from '@ipld/car';
import { importer } from 'ipfs-unixfs-importer';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { expect } from 'vitest';
import type { PinRecord } from '../../shared/api-types.js';
import { blockKey, dfsBlocks, type GatewayBlock } from '../helpers/trustless-gateway.js';
import { call } from '../helpers/test-server.js';
import { HAMT_1000_CAR } from './folders-helpers.js';
import { CONTRACT_IMPORTER_OPTIONS, gatewayGet, randomData, type Key, type Server } from './uploads-helpers.js';
import { until } from '../helpers/until.js';
import { sha256Cid } from '../helpers/raw-blocks.js';

/** Helpers of the fetch tests (issue 23): DAGs of every codec Pinfold reads, and waiting for a pin. */

export interface TestDag {
  root: CID;
  /** Every block of the DAG once, depth-first from the root. */
  blocks: GatewayBlock[];
  /** Their bytes: what a fetch of the whole DAG counts as ingress. */
  bytes: number;
}

function dagOf(root: CID, all: Iterable<GatewayBlock>): TestDag {
  const byKey = new Map<string, GatewayBlock>();
  for (const block of all) byKey.set(blockKey(block.cid), block);
  const blocks = dfsBlocks(byKey, root);
  return { root, blocks, bytes: blocks.reduce((sum, block) => sum + block.bytes.byteLength, 0) };
}

/** A dag-cbor root linking a dag-cbor node, a dag-json node and raw leaves: every linking codec but dag-pb. */
export function cborDag(label: string): TestDag {
  const leaves = [0, 1, 2, 3].map((i) => {
    const bytes = randomData(3000 + i);
    return { cid: sha256Cid(raw.code, bytes), bytes };
  });
  const jsonBytes = dagJson.encode({ label, leaf: leaves[2]?.cid, list: [leaves[3]?.cid] });
  const jsonNode = { cid: sha256Cid(dagJson.code, jsonBytes), bytes: jsonBytes };
  const midBytes = dagCbor.encode({ label, leaves: [leaves[0]?.cid, leaves[1]?.cid] });
  const mid = { cid: sha256Cid(dagCbor.code, midBytes), bytes: midBytes };
  const rootBytes = dagCbor.encode({ label, mid: mid.cid, json: jsonNode.cid, nested: { deeper: [mid.cid] } });
  const root = { cid: sha256Cid(dagCbor.code, rootBytes), bytes: rootBytes };
  return dagOf(root.cid, [root, mid, jsonNode, ...leaves]);
}

/** The 1,000-entry HAMT folder of the gateway conformance fixtures (dag-pb, 243 blocks). */
export async function hamtDag(): Promise<TestDag & { car: Uint8Array }> {
  const car = new Uint8Array(await readFile(HAMT_1000_CAR));
  const iterator = await CarBlockIterator.fromBytes(car);
  const [root] = await iterator.getRoots();
  const all: GatewayBlock[] = [];
  for await (const block of iterator) all.push({ cid: block.cid, bytes: block.bytes });
  return { ...dagOf(root as CID, all), car };
}

/** Polls the pin until it is `status`; answers it. */
export async function pinReaches(server: Server, key: Key, cid: string, status: PinRecord['status'], ms = 60_000): Promise<PinRecord> {
  return until(
    `pin ${cid} ${status}`,
    async () => {
      const answer = await call<{ data: PinRecord }>(server, 'GET', `/api/v0/pin/${cid}`, { key });
      return answer.status === 200 && answer.json.data.status === status ? answer.json.data : undefined;
    },
    ms,
  );
}

export async function pinAdd(server: Server, key: Key, cid: string): Promise<void> {
  const answer = await call(server, 'POST', '/api/v0/pin/add', { key, query: { arg: cid } });
  expect(answer.status, answer.text).toBe(200);
}

/** Every block of the DAG is served by `server`, byte for byte. */
export async function expectHeld(server: Server, key: Key, dag: TestDag): Promise<void> {
  for (const block of dag.blocks) {
    const answer = await gatewayGet(server, key, `/ipfs/${block.cid.toString()}`, { query: { format: 'raw' } });
    expect(answer.status, block.cid.toString()).toBe(200);
    expect(answer.bytes.equals(Buffer.from(block.bytes))).toBe(true);
  }
}

/** Bytes of the DAG's blocks `server` holds. */
export async function heldBytes(server: Server, key: Key, dag: TestDag): Promise<number> {
  let bytes = 0;
  for (const block of dag.blocks) {
    const answer = await gatewayGet(server, key, `/ipfs/${block.cid.toString()}`, { query: { format: 'raw' } });
    if (answer.status === 200) bytes += answer.bytes.byteLength;
  }
  return bytes;
}

/** A folder of `count` small files, imported with the contract profile: past 256 KiB of links it is a HAMT. */
export async function folderDag(count: number): Promise<TestDag> {
  const blocks: GatewayBlock[] = [];
  const seen = new Set<string>();
  const store = {
    async put(cid: CID, data: Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<CID> {
      if (!(data instanceof Uint8Array)) throw new TypeError('expected bytes');
      if (!seen.has(blockKey(cid))) {
        seen.add(blockKey(cid));
        blocks.push({ cid, bytes: data.slice() });
      }
      return cid;
    },
  };
  const files = Array.from({ length: count }, (_, i) => ({
    path: `file-${String(i).padStart(5, '0')}.txt`,
    content: [new TextEncoder().encode(`file ${i} of ${count}\n`)],
  }));
  let root: CID | undefined;
  for await (const entry of importer(files, store, { ...CONTRACT_IMPORTER_OPTIONS, wrapWithDirectory: true })) root = entry.cid;
  if (root === undefined) throw new Error('importer gave no root');
  return dagOf(root, blocks);
}

/**
 * Reads every pack file of a data folder's block store record by record: none is torn, each hashes to its
 * multihash (sha2-256), and each multihash is stored once. Answers the multihashes (hex) found.
 */
export async function scanPacks(blocksDir: string): Promise<string[]> {
  const packsDir = join(blocksDir, 'packs');
  const found: string[] = [];
  for (const name of (await readdir(packsDir)).filter((file) => file.endsWith('.pack')).sort()) {
    const pack = await readFile(join(packsDir, name));
    expect(pack.subarray(0, 8).toString('latin1'), name).toBe('PFPACK01');
    let at = 8;
    while (at < pack.byteLength) {
      expect(at + 2, `${name}: torn record header at ${at}`).toBeLessThanOrEqual(pack.byteLength);
      const multihashLength = pack.readUInt16LE(at);
      const multihash = pack.subarray(at + 2, at + 2 + multihashLength);
      expect(at + 2 + multihashLength + 4, `${name}: torn record header at ${at}`).toBeLessThanOrEqual(pack.byteLength);
      const length = pack.readUInt32LE(at + 2 + multihashLength);
      const start = at + 2 + multihashLength + 4;
      expect(start + length, `${name}: torn record at ${at}`).toBeLessThanOrEqual(pack.byteLength);
      const bytes = pack.subarray(start, start + length);
      expect(multihash[0], 'sha2-256 multihash').toBe(0x12);
      expect(
        Buffer.from(multihash.subarray(2)).equals(createHash('sha256').update(bytes).digest()),
        `${name}: record at ${at} does not hash to its multihash`,
      ).toBe(true);
      found.push(Buffer.from(multihash).toString('hex'));
      at = start + length;
    }
  }
  expect(new Set(found).size, 'a block stored twice in the packs').toBe(found.length);
  return found;
}
