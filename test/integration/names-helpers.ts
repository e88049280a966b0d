import { multihashToIPNSRoutingKey, unmarshalIPNSRecord, type IPNSRecord } from 'ipns';
import { ipnsValidator } from 'ipns/validator';
import { base36 } from 'multiformats/bases/base36';
import { base58btc } from 'multiformats/bases/base58';
import { CID } from 'multiformats/cid';
import { expect } from 'vitest';
import type { IpnsRecordView } from '../../shared/api-types.js';
import { call, type CallResult } from '../helpers/test-server.js';
import { gatewayGet, type Key, type Server } from './uploads-helpers.js';

/** Helpers shared by the IPNS names' HTTP integration tests (names-*.test.ts, dnslink-*.test.ts). */

/** The peer ID (base58btc multihash) of a base36 IPNS name: the same key, written the way Kubo states it. */
export function peerIdOf(name: string): string {
  return base58btc.baseEncode(CID.parse(name, base36).multihash.bytes);
}

export type Envelope<T = undefined> = { code: number; msg: string; data: T };
export type NameAnswer = Envelope<{ name: string; value: string }>;

export function createName(server: Server, key: Key, cid: string, query: Record<string, string | boolean> = {}): Promise<CallResult<NameAnswer>> {
  return call<NameAnswer>(server, 'POST', '/api/v0/name/create', { key, query: { arg: cid, ...query } });
}

export async function createdName(server: Server, key: Key, cid: string, query: Record<string, string | boolean> = {}): Promise<string> {
  const response = await createName(server, key, cid, query);
  if (response.status !== 200) throw new Error(`name/create failed: ${response.status} ${response.text}`);
  return response.json.data.name;
}

export function publishName(
  server: Server,
  key: Key,
  name: string,
  cid: string,
  query: Record<string, string | boolean> = {},
): Promise<CallResult<NameAnswer>> {
  return call<NameAnswer>(server, 'POST', '/api/v0/name/publish', { key, query: { key: name, arg: cid, ...query } });
}

export function importName(server: Server, key: Key, body: unknown): Promise<CallResult<Envelope>> {
  return call<Envelope>(server, 'POST', '/api/v0/name/import', { key, body });
}

export function removeName(server: Server, key: Key, name: string): Promise<CallResult<Envelope>> {
  return call<Envelope>(server, 'POST', '/api/v0/name/rm', { key, query: { key: name } });
}

export function listNames(server: Server, key: Key, query: Record<string, string | number> = {}) {
  return call<{ code: number; data: IpnsRecordView[]; total: number }>(server, 'GET', '/api/v0/ipns', { key, query });
}

export async function namesTotal(server: Server, key: Key): Promise<number> {
  const response = await listNames(server, key, { limit: 1000 });
  if (response.status !== 200) throw new Error(`ipns list failed: ${response.status} ${response.text}`);
  return response.json.total;
}

/** The signed record the gateway serves for `name` (`?format=ipns-record`). */
export async function fetchRecord(server: Server, key: Key, name: string): Promise<Uint8Array> {
  const response = await gatewayGet(server, key, `/ipns/${name}`, { query: { format: 'ipns-record' } });
  expect(response.status, response.bytes.toString('utf8')).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/vnd\.ipfs\.ipns-record/);
  return new Uint8Array(response.bytes);
}

/**
 * Decodes a record and checks it as any IPNS client would: the ipns package's validator against the
 * name's routing key (signature V2, V1/V2 agreement, size, EOL).
 */
export async function decodeValidRecord(name: string, bytes: Uint8Array): Promise<IPNSRecord> {
  const cid = CID.parse(name, base36);
  await ipnsValidator(multihashToIPNSRoutingKey(cid.multihash as Parameters<typeof multihashToIPNSRoutingKey>[0]), bytes);
  return unmarshalIPNSRecord(bytes);
}

/** The `/ipfs/<cid>` value the ipns package writes for a CID (always CIDv1). */
export function ipfsValue(cid: string): string {
  return `/ipfs/${CID.parse(cid).toV1().toString()}`;
}

export { addDnsLink, fixtureDnsLinks, startDnsServer, type DnsLinkEntry, type TestDnsServer } from '../helpers/dns-server.js';
