import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { MemoryBlockstore } from 'blockstore-core/memory';
import { CarWriter } from '@ipld/car/writer';
import { importer } from 'ipfs-unixfs-importer';
import { fixedSize } from 'ipfs-unixfs-importer/chunker';
import { balanced } from 'ipfs-unixfs-importer/layout';
import type { CID } from 'multiformats/cid';
import { expect } from 'vitest';
import type { AccountUsage, CreatedAccessKey } from '../../shared/api-types.js';
import { call, type CallResult } from '../helpers/test-server.js';

/** Helpers shared by the content engine's HTTP integration tests (uploads, DAG edits, CAR import, pins, GC, limits). */

export type Key = CreatedAccessKey;
export interface Server {
  url: string;
}

export const MiB = 1024 * 1024;
export const EMPTY_DIR_V0 = 'QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn';
export const EMPTY_DIR_V1 = 'bafybeiczsscdsbs7ffqz55asqdf3smv6klcw3gofszvwlyarci47bgf354';

export interface Step2Result {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

/** Step 1 of a two-step upload: answers the signed address (or the error response). */
export async function step1(
  server: Server,
  key: Key,
  method: string,
  path: string,
  query: Record<string, string | number | boolean> = {},
): Promise<CallResult<{ code: number; msg: string; data: { url: string } }>> {
  return call(server, method, path, { key, query });
}

export async function addressFor(
  server: Server,
  key: Key,
  method: string,
  path: string,
  query: Record<string, string | number | boolean> = {},
): Promise<string> {
  const response = await step1(server, key, method, path, query);
  if (response.status !== 200) throw new Error(`step 1 ${method} ${path} failed: ${response.status} ${response.text}`);
  return response.json.data.url;
}

export type Body = Uint8Array | AsyncIterable<Uint8Array> | FormData | null;

/** Step 2: the payload to the signed address, raw unless it is a FormData. */
export async function step2(url: string, method: string, body: Body, headers: Record<string, string> = {}): Promise<Step2Result> {
  const init: RequestInit & { duplex?: 'half' } = { method, headers: { ...headers } };
  if (body instanceof FormData) init.body = body;
  else if (body instanceof Uint8Array) {
    init.body = body;
    (init.headers as Record<string, string>)['content-type'] ??= 'application/octet-stream';
  } else if (body !== null) {
    init.body = ReadableStream.from(body);
    init.duplex = 'half';
    (init.headers as Record<string, string>)['content-type'] ??= 'application/octet-stream';
  }
  const response = await fetch(url, init);
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: unknown;
}

/**
 * A request written by hand: exactly these headers, the body in these pieces (chunked unless the headers
 * set Content-Length), and with `finish: false` never ended, as a client that stops sending. Resolves with
 * the server's answer whenever it comes; a connection the server closes after answering is no error.
 */
export function sendRaw(
  url: string,
  method: string,
  headers: Record<string, string>,
  pieces: readonly Uint8Array[],
  options: { finish?: boolean } = {},
): Promise<RawAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = httpRequest({ host: target.hostname, port: target.port, method, path: `${target.pathname}${target.search}`, headers }, (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : null;
        } catch {
          json = null;
        }
        request.destroy();
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json });
      });
      response.on('error', reject);
    });
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    // Headers go out now even when no body byte follows.
    request.flushHeaders();
    for (const piece of pieces) request.write(piece);
    if (options.finish !== false) request.end();
  });
}

/**
 * A client that trickles: `head` at once, then one byte of `tail` every `everyMs` until the server answers
 * (or `tail` runs out, after which it falls silent without ending the body). `sent` is what went out.
 */
export function sendTrickle(
  url: string,
  method: string,
  headers: Record<string, string>,
  head: Uint8Array,
  tail: Uint8Array,
  everyMs: number,
): Promise<RawAnswer & { sent: number }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const request = httpRequest({ host: target.hostname, port: target.port, method, path: `${target.pathname}${target.search}`, headers }, (response) => {
      clearInterval(timer);
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : null;
        } catch {
          json = null;
        }
        request.destroy();
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json, sent });
      });
      response.on('error', reject);
    });
    request.on('error', (error) => {
      clearInterval(timer);
      reject(error);
    });
    request.flushHeaders();
    request.write(head);
    sent = head.byteLength;
    let next = 0;
    timer = setInterval(() => {
      if (next >= tail.byteLength) return clearInterval(timer);
      request.write(tail.subarray(next, next + 1));
      next++;
      sent++;
    }, everyMs);
  });
}

/** A multipart/form-data body written by hand (so a test can break it), with its Content-Type. */
export function multipartBody(parts: Array<{ name: string; filename?: string; bytes: Uint8Array }>): { contentType: string; body: Buffer } {
  const boundary = 'pinfold-test-boundary';
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    pieces.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}\r\n\r\n`),
      Buffer.from(part.bytes),
      Buffer.from('\r\n'),
    );
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(pieces) };
}

/** One file through both steps of `POST /ipfs/?size=`; returns the step-2 answer. */
export async function uploadFile(server: Server, key: Key, bytes: Uint8Array, options: { multipart?: boolean; size?: number } = {}): Promise<Step2Result> {
  const url = await addressFor(server, key, 'POST', '/ipfs/', { size: options.size ?? bytes.byteLength });
  if (options.multipart) {
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'payload.bin');
    return step2(url, 'POST', form);
  }
  return step2(url, 'POST', bytes);
}

/** Uploads and returns the new CID text, failing loudly otherwise. */
export async function uploadCid(server: Server, key: Key, bytes: Uint8Array): Promise<string> {
  const response = await uploadFile(server, key, bytes);
  if (response.status !== 201) throw new Error(`upload failed: ${response.status} ${response.text}`);
  return response.headers.get('ipfs-hash') as string;
}

/** DAG add: PUT /ipfs/{root}/{path} with `bytes`; returns the step-2 answer. */
export async function dagAdd(server: Server, key: Key, root: string, path: string, bytes: Uint8Array): Promise<Step2Result> {
  const url = await addressFor(server, key, 'PUT', `/ipfs/${root}/${path}`, { size: bytes.byteLength });
  return step2(url, 'PUT', bytes);
}

export async function dagRemove(server: Server, key: Key, root: string, path: string): Promise<Step2Result> {
  const url = await addressFor(server, key, 'DELETE', `/ipfs/${root}/${path}`);
  return step2(url, 'DELETE', null);
}

export interface CarImportAnswer {
  Roots: Array<{ Cid: { '/': string }; PinErrorMsg: string }>;
  Stats: { BlockCount: number; BlockBytesCount: number };
}

export async function carImport(server: Server, key: Key, car: Uint8Array, options: { pinRoots?: boolean } = {}): Promise<Step2Result> {
  const query: Record<string, string | number> = { size: car.byteLength };
  if (options.pinRoots === false) query['pin-roots'] = 'false';
  const url = await addressFor(server, key, 'POST', '/api/v0/dag/import', query);
  return step2(url, 'POST', car);
}

export async function stats(server: Server, key: Key): Promise<AccountUsage> {
  const response = await call<{ data: AccountUsage }>(server, 'GET', '/api/v0/stats', { key });
  if (response.status !== 200) throw new Error(`stats failed: ${response.status} ${response.text}`);
  return response.json.data;
}

/** The counters a rejected call must leave as they were. */
export function counters(usage: AccountUsage): Pick<AccountUsage, 'pinned_count' | 'pinned_bytes' | 'ingress' | 'egress' | 'ipns'> {
  return { pinned_count: usage.pinned_count, pinned_bytes: usage.pinned_bytes, ingress: usage.ingress, egress: usage.egress, ipns: usage.ipns };
}

export interface Fetched {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** A fetched answer in the shape `call` gives (and expectError takes): its text, and its JSON when it is JSON. */
export function asCall(response: Fetched) {
  const text = response.bytes.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: response.status, headers: response.headers, json, text };
}

/** A gateway GET (or HEAD) with credentials and `ts`, body as bytes. */
export async function gatewayGet(
  server: Server,
  key: Key,
  path: string,
  options: { method?: string; query?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<Fetched> {
  const query = new URLSearchParams({ ts: String(Math.floor(Date.now() / 1000)), ...(options.query ?? {}) });
  const response = await fetch(`${server.url}${path}?${query.toString()}`, {
    method: options.method ?? 'GET',
    headers: { 'X-Access-Key': key.access_key, 'X-Access-Secret': key.access_secret, ...(options.headers ?? {}) },
    redirect: 'manual',
  });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** Asserts the gateway does not serve `cid` (it is not held). */
export async function expectNotServed(server: Server, key: Key, cid: string): Promise<void> {
  const response = await gatewayGet(server, key, `/ipfs/${cid}`, { query: { format: 'raw' } });
  expect(response.status, `${cid} should not be held`).toBe(404);
}

export const CONTRACT_IMPORTER_OPTIONS = {
  cidVersion: 1 as const,
  rawLeaves: true,
  reduceSingleLeafToSelf: true,
  chunker: fixedSize({ chunkSize: MiB }),
  layout: balanced({ maxChildrenPerNode: 1024 }),
};

/** The CID ipfs-unixfs-importer gives `bytes` with the contract profile. */
export async function referenceCid(bytes: Uint8Array): Promise<string> {
  let cid: CID | undefined;
  for await (const entry of importer([{ content: [bytes] }], new MemoryBlockstore(), CONTRACT_IMPORTER_OPTIONS)) cid = entry.cid;
  if (!cid) throw new Error('importer gave no CID');
  return cid.toString();
}

export function randomData(size: number): Uint8Array {
  return new Uint8Array(randomBytes(size));
}

/** A CARv1 in memory (tests only: small CARs). */
export async function carV1(roots: CID[], blocks: Array<{ cid: CID; bytes: Uint8Array }>): Promise<Uint8Array> {
  const { writer, out } = CarWriter.create(roots);
  const chunks: Uint8Array[] = [];
  const collected = (async () => {
    for await (const chunk of out) chunks.push(chunk);
  })();
  for (const block of blocks) await writer.put(block);
  await writer.close();
  await collected;
  return new Uint8Array(Buffer.concat(chunks));
}

/** Wraps a CARv1 in a CARv2 container (pragma, header, the v1 payload, no index). */
export function carV2(v1: Uint8Array): Uint8Array {
  const pragma = Buffer.from('0aa16776657273696f6e02', 'hex');
  const header = Buffer.alloc(40);
  const dataOffset = pragma.byteLength + 40;
  header.writeBigUInt64LE(BigInt(dataOffset), 16);
  header.writeBigUInt64LE(BigInt(v1.byteLength), 24);
  header.writeBigUInt64LE(0n, 32);
  return new Uint8Array(Buffer.concat([pragma, header, v1]));
}

export interface Block {
  cid: CID;
  bytes: Uint8Array;
}

/** The blocks of `bytes` imported with the contract profile, in the importer's write order, and its root. */
export async function fileDag(bytes: Uint8Array): Promise<{ root: CID; blocks: Block[] }> {
  const blocks: Block[] = [];
  const seen = new Set<string>();
  const store = {
    async put(cid: CID, data: Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<CID> {
      if (!(data instanceof Uint8Array)) throw new TypeError('expected bytes');
      if (!seen.has(cid.toString())) {
        seen.add(cid.toString());
        blocks.push({ cid, bytes: data.slice() });
      }
      return cid;
    },
  };
  let root: CID | undefined;
  for await (const entry of importer([{ content: [bytes] }], store, CONTRACT_IMPORTER_OPTIONS)) root = entry.cid;
  if (!root) throw new Error('importer gave no CID');
  return { root, blocks };
}

/** Total bytes of distinct blocks. */
export function blockBytes(blocks: readonly Block[]): number {
  return blocks.reduce((sum, block) => sum + block.bytes.byteLength, 0);
}
