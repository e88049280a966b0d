import type { ServerResponse } from 'node:http';
import { CarBlockIterator } from '@ipld/car';
import * as dagCbor from '@ipld/dag-cbor';
import { CID } from 'multiformats/cid';
import { varint } from 'multiformats';
import { blockLinks, canHaveLinks } from '../../main/content/walk/block-links.js';
import { startScriptedServer, type ScriptedServer } from './scripted-server.js';

export interface GatewayBlock {
  cid: CID;
  bytes: Uint8Array;
}

/**
 * How a test gateway misbehaves; every field may be changed while it runs. The default is an honest
 * trustless gateway (ipfs/specs trustless-gateway) over `blocks`.
 */
export interface GatewayScript {
  /** 'refuse': 406 to every CAR request (a blocks-only gateway). */
  car: 'serve' | 'refuse';
  /** Bytes to send instead of the block's own, for a raw block request or inside a CAR (a lying gateway). */
  lie?: (cid: CID) => Uint8Array | undefined;
  /** A block sent inside CARs, right after the root, that the DAG does not link to. */
  extraInCar?: GatewayBlock;
  /** Seconds of a `429` + `Retry-After` answer for this request, or undefined to answer it. */
  busy?: (url: string) => number | undefined;
  /** Never answers (the connection stays open and silent). */
  stall: boolean;
  /** Destroys the connection after sending this many blocks of a CAR (a gateway dying mid-answer). */
  dieAfterBlocks?: number;
  /** Waits this long before each CAR section and each block answer (a slow gateway). */
  trickleMs: number;
}

export interface TestGateway extends ScriptedServer {
  readonly script: GatewayScript;
  readonly blocks: Map<string, GatewayBlock>;
  /** CIDs asked as raw blocks, in order. */
  blockRequests(): string[];
  /** CIDs asked as CARs, in order. */
  carRequests(): string[];
}

export function blockKey(cid: CID): string {
  return Buffer.from(cid.multihash.bytes).toString('hex');
}

/** Every block of a CAR file's bytes. */
export async function blocksOfCar(bytes: Uint8Array): Promise<GatewayBlock[]> {
  const out: GatewayBlock[] = [];
  for await (const block of await CarBlockIterator.fromBytes(bytes)) out.push({ cid: block.cid, bytes: block.bytes });
  return out;
}

/** The DAG's blocks in depth-first order, each once (what `dag-scope=all` with `dups=n` sends); held ones only. */
export function dfsBlocks(blocks: ReadonlyMap<string, GatewayBlock>, root: CID): GatewayBlock[] {
  const out: GatewayBlock[] = [];
  const seen = new Set<string>();
  const stack: CID[] = [root];
  while (stack.length > 0) {
    const cid = stack.pop() as CID;
    const key = blockKey(cid);
    if (seen.has(key) || cid.multihash.code === 0) continue;
    seen.add(key);
    const block = blocks.get(key);
    if (block === undefined) continue;
    out.push({ cid, bytes: block.bytes });
    if (canHaveLinks(cid.code)) {
      const links = blockLinks(cid, block.bytes);
      for (let i = links.length - 1; i >= 0; i--) stack.push(links[i] as CID);
    }
  }
  return out;
}

function carHeader(root: CID): Uint8Array {
  const header = dagCbor.encode({ version: 1, roots: [root] });
  return Buffer.concat([varint.encodeTo(header.byteLength, new Uint8Array(varint.encodingLength(header.byteLength))), header]);
}

function carSection(block: GatewayBlock): Uint8Array {
  const length = block.cid.bytes.byteLength + block.bytes.byteLength;
  return Buffer.concat([varint.encodeTo(length, new Uint8Array(varint.encodingLength(length))), block.cid.bytes, block.bytes]);
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A trustless gateway on a loopback port, serving `blocks` as the test's script says. */
export async function startTrustlessGateway(blocks: Iterable<GatewayBlock>, script: Partial<GatewayScript> = {}): Promise<TestGateway> {
  const held = new Map<string, GatewayBlock>();
  for (const block of blocks) held.set(blockKey(block.cid), block);
  const live: GatewayScript = { car: 'serve', stall: false, trickleMs: 0, ...script };
  const blockAsked: string[] = [];
  const carAsked: string[] = [];

  // Resolves once the bytes are handed to the connection, so a test that cuts it afterwards knows they went.
  const write = (response: ServerResponse, bytes: Uint8Array): Promise<void> =>
    new Promise((resolve) => {
      if (response.destroyed) return resolve();
      response.write(bytes, () => resolve());
    });

  const server = await startScriptedServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://gateway');
    const match = /^\/ipfs\/([^/]+)$/.exec(url.pathname);
    if (match === null) {
      response.writeHead(404);
      response.end();
      return;
    }
    const cid = CID.parse(match[1] as string);
    const wantsCar = url.searchParams.get('format') === 'car';
    (wantsCar ? carAsked : blockAsked).push(cid.toString());
    if (live.stall) return;
    const busy = live.busy?.(request.url ?? '');
    if (busy !== undefined) {
      response.writeHead(429, { 'retry-after': String(busy) });
      response.end();
      return;
    }
    const block = held.get(blockKey(cid));
    if (wantsCar) {
      if (live.car === 'refuse') {
        response.writeHead(406);
        response.end();
        return;
      }
      if (block === undefined) {
        response.writeHead(404);
        response.end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/vnd.ipld.car; version=1; order=dfs; dups=n' });
      await write(response, carHeader(cid));
      const order = dfsBlocks(held, cid);
      if (live.extraInCar) order.splice(1, 0, live.extraInCar);
      let sent = 0;
      for (const next of order) {
        if (live.dieAfterBlocks !== undefined && sent >= live.dieAfterBlocks) {
          response.destroy();
          return;
        }
        if (live.trickleMs > 0) await pause(live.trickleMs);
        if (response.destroyed) return;
        await write(response, carSection({ cid: next.cid, bytes: live.lie?.(next.cid) ?? next.bytes }));
        sent++;
      }
      response.end();
      return;
    }
    if (block === undefined) {
      response.writeHead(404);
      response.end();
      return;
    }
    if (live.trickleMs > 0) await pause(live.trickleMs);
    const bytes = live.lie?.(cid) ?? block.bytes;
    response.writeHead(200, { 'content-type': 'application/vnd.ipld.raw', 'content-length': String(bytes.byteLength) });
    response.end(bytes);
  });

  return Object.assign(server, {
    script: live,
    blocks: held,
    blockRequests: () => [...blockAsked],
    carRequests: () => [...carAsked],
  });
}
