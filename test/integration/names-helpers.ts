import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { multihashToIPNSRoutingKey, unmarshalIPNSRecord, type IPNSRecord } from 'ipns';
import { ipnsValidator } from 'ipns/validator';
import { base36 } from 'multiformats/bases/base36';
import { CID } from 'multiformats/cid';
import { expect } from 'vitest';
import type { IpnsRecordView } from '../../shared/api-types.js';
import { call, type CallResult } from '../helpers/test-server.js';
import { gatewayGet, type Key, type Server } from './uploads-helpers.js';

/** Helpers shared by the IPNS names' HTTP integration tests (names-*.test.ts, dnslink-*.test.ts). */

export const fixturesDir = resolve(fileURLToPath(new URL('../fixtures', import.meta.url)));

export function fixture(relative: string): Buffer {
  return readFileSync(join(fixturesDir, relative));
}

interface KeyFixture {
  id: string;
  key_type: string;
  file?: string;
  private_key_protobuf_base64?: string;
  derived_libp2p_private_key_protobuf_hex?: string;
  private_key_protobuf_hex?: string;
  expected_peer_id_b58mh?: string;
  derived_ipns_name_base36?: string;
}

/** One importable fixture key: its PEM text (when the fixture has one), its protobuf bytes, and its names. */
export interface FixtureKey {
  id: string;
  type: 'Ed25519' | 'RSA';
  pem: string | undefined;
  protobuf: Buffer;
  /** The stated peer ID (`12D3KooW...` or `Qm...`). */
  peerId: string;
  /** The same key as base36 CIDv1 libp2p-key (`k51...`, `k2k4...`). */
  name: string;
}

export function fixtureKeys(): FixtureKey[] {
  const all = JSON.parse(fixture('keys.json').toString('utf8')) as KeyFixture[];
  const out: FixtureKey[] = [];
  for (const entry of all) {
    const type = entry.key_type.startsWith('RSA') ? 'RSA' : entry.key_type === 'Ed25519' ? 'Ed25519' : undefined;
    if (type === undefined || entry.expected_peer_id_b58mh === undefined || entry.derived_ipns_name_base36 === undefined) continue;
    const protobufText = entry.derived_libp2p_private_key_protobuf_hex ?? entry.private_key_protobuf_hex;
    const protobuf =
      entry.private_key_protobuf_base64 !== undefined
        ? Buffer.from(entry.private_key_protobuf_base64, 'base64')
        : protobufText !== undefined
          ? Buffer.from(protobufText, 'hex')
          : undefined;
    if (protobuf === undefined) continue;
    out.push({
      id: entry.id,
      type,
      pem: entry.file !== undefined ? fixture(entry.file).toString('utf8') : undefined,
      protobuf,
      peerId: entry.expected_peer_id_b58mh,
      name: entry.derived_ipns_name_base36,
    });
  }
  return out;
}

export function fixtureKey(id: string): FixtureKey {
  const key = fixtureKeys().find((candidate) => candidate.id === id);
  if (key === undefined) throw new Error(`no fixture key ${id}`);
  return key;
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
