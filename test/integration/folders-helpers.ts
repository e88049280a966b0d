import { readFile } from 'node:fs/promises';
import { MemoryBlockstore } from 'blockstore-core/memory';
import { importer } from 'ipfs-unixfs-importer';
import type { CID } from 'multiformats/cid';
import { expect } from 'vitest';
import type { PinRecord } from '../../shared/api-types.js';
import { expectError } from '../helpers/account-api.js';
import { call, type CallResult } from '../helpers/test-server.js';
import { CONTRACT_IMPORTER_OPTIONS, counters, gatewayGet, stats, uploadCid, type Key, type Server } from './uploads-helpers.js';

/** Helpers of the folder integration tests (folders-*.test.ts): folder calls, snapshots, reference roots. */

export const fixturesRoot = new URL('../fixtures/', import.meta.url);
export const HAMT_1000_CAR = new URL('gateway-conformance/fixtures/trustless_gateway_car/single-layer-hamt-with-multi-block-files.car', fixturesRoot);
export const HAMT_1000_ROOT = 'bafybeidbclfqleg2uojchspzd4bob56dqetqjsj27gy2cq3klkkgxtpn4i';
export const HAMT_1000_FILE = 'bafybeigcisqd7m5nf3qmuvjdbakl5bdnh4ocrmacaqkpuh77qjvggmt2sa';
export const KUBO_HAMT_CAR = new URL('kubo/test/cli/fixtures/TestGatewayHAMTDirectory.car', fixturesRoot);
export const KUBO_HAMT_ROOT = 'bafybeiggvykl7skb2ndlmacg2k5modvudocffxjesexlod2pfvg5yhwrqm';

export async function readFixture(url: URL): Promise<Uint8Array> {
  return new Uint8Array(await readFile(url));
}

export interface OperationBody {
  cid: string;
  add?: Array<[string, string]>;
  remove?: string[];
  pin_new?: boolean;
  unpin_old?: boolean;
}

type OperationAnswer = CallResult<{ code: number; msg: string; data?: { cid: string } }>;

export function folderImport(server: Server, key: Key, cid: string): Promise<CallResult<{ code: number; msg: string }>> {
  return call(server, 'PUT', `/api/v0/folder/${cid}`, { key });
}

export function folderOperation(server: Server, key: Key, body: OperationBody | string): Promise<OperationAnswer> {
  return call(server, 'POST', '/api/v0/folder/operation', { key, body });
}

/** Imports `cid`, failing loudly unless the answer is the plain success envelope. */
export async function importOk(server: Server, key: Key, cid: string): Promise<void> {
  const response = await folderImport(server, key, cid);
  expect(response.status, response.text).toBe(200);
  expect(response.json).toEqual({ code: 200, msg: 'ok' });
}

/** Runs an operation that must succeed; returns the new root. */
export async function operateOk(server: Server, key: Key, body: OperationBody): Promise<string> {
  const response = await folderOperation(server, key, body);
  expect(response.status, response.text).toBe(200);
  expect(response.json.code).toBe(200);
  expect(response.json.msg).toBe('ok');
  const cid = response.json.data?.cid;
  expect(typeof cid).toBe('string');
  return cid as string;
}

export async function pinAdd(server: Server, key: Key, cid: string): Promise<void> {
  const response = await call(server, 'POST', '/api/v0/pin/add', { key, query: { arg: cid } });
  if (response.status !== 200) throw new Error(`pin add ${cid} failed: ${response.status} ${response.text}`);
}

export async function pinRecord(server: Server, admin: Key, cid: string): Promise<PinRecord | null> {
  const response = await call<{ data: PinRecord }>(server, 'GET', `/api/v0/pin/${cid}`, { key: admin });
  if (response.status === 404) return null;
  if (response.status !== 200) throw new Error(`pin get ${cid} failed: ${response.status} ${response.text}`);
  return response.json.data;
}

/** Uploads `bytes` as a file and pins it; returns its CID. */
export async function pinnedFile(server: Server, key: Key, bytes: Uint8Array): Promise<string> {
  const cid = await uploadCid(server, key, bytes);
  await pinAdd(server, key, cid);
  return cid;
}

export interface Snapshot {
  pins: Array<Pick<PinRecord, 'cid' | 'status' | 'size' | 'name'>>;
  usage: ReturnType<typeof counters>;
}

/** What a rejected call must leave as it was: the account's pins (every one) and its usage counters. */
export async function snapshot(server: Server, admin: Key): Promise<Snapshot> {
  const response = await call<{ data: PinRecord[]; total: number }>(server, 'GET', '/api/v0/pin', { key: admin, query: { limit: 1000 } });
  if (response.status !== 200) throw new Error(`pin list failed: ${response.status} ${response.text}`);
  expect(response.json.total).toBeLessThanOrEqual(1000);
  const pins = response.json.data.map(({ cid, status, size, name }) => ({ cid, status, size, name })).sort((a, b) => a.cid.localeCompare(b.cid));
  return { pins, usage: counters(await stats(server, admin)) };
}

/**
 * Asserts a rejected call: the status and a message naming the fault, the pins and counters as
 * `before`, and, for each root in `notOperable`, that it is neither operable nor held.
 */
export async function expectRejected(
  server: Server,
  admin: Key,
  response: CallResult,
  status: number,
  msg: RegExp,
  before: Snapshot,
  notOperable: readonly string[] = [],
): Promise<void> {
  expectError(response, status, msg);
  expect(await snapshot(server, admin)).toEqual(before);
  for (const cid of notOperable) {
    await expectNotOperable(server, admin, cid);
    const held = await gatewayGet(server, admin, `/ipfs/${cid}`, { query: { format: 'raw' } });
    expect(held.status, `${cid} must not have been written`).toBe(404);
  }
}

/** An operation on `cid` answers 404: no import and no operation of this account made it operable. */
export async function expectNotOperable(server: Server, key: Key, cid: string): Promise<void> {
  const response = await folderOperation(server, key, { cid });
  expectError(response, 404, /cid: .* has not been imported/);
}

/**
 * The root ipfs-unixfs-importer 17 builds for `files` wrapped in a directory, with the contract
 * profile (CIDv1, raw leaves, 1 MiB chunks) and the 256 KiB shard threshold.
 */
export async function referenceDirectory(files: ReadonlyMap<string, Uint8Array>): Promise<string> {
  let root: CID | undefined;
  const source = [...files].map(([path, content]) => ({ path, content: [content] }));
  const options = { ...CONTRACT_IMPORTER_OPTIONS, wrapWithDirectory: true, shardSplitThresholdBytes: 262_144 };
  for await (const entry of importer(source, new MemoryBlockstore(), options)) root = entry.cid;
  if (root === undefined) throw new Error('importer gave no root');
  return root.toString();
}

/** The UnixFS type of a dag-pb node (1 directory, 2 file, 5 HAMT shard), read through dag/get. */
export async function unixfsType(server: Server, key: Key, cid: string): Promise<number> {
  const response = await call<{ Data?: { '/': { bytes: string } } }>(server, 'GET', '/api/v0/dag/get', { key, query: { arg: cid } });
  if (response.status !== 200) throw new Error(`dag get ${cid} failed: ${response.status} ${response.text}`);
  const data = Buffer.from(response.json.Data?.['/'].bytes ?? '', 'base64');
  // UnixFS Data starts with field 1 (Type) as a varint: 0x08 <type>.
  expect(data[0]).toBe(0x08);
  return data[1] as number;
}

export function text(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}
