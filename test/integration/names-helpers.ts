import { existsSync, readdirSync, readFileSync } from 'node:fs';
import dns2 from 'dns2';
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

export const fixturesDir = resolve(fileURLToPath(new URL('../../../shared/fixtures', import.meta.url)));

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

export function publishName(server: Server, key: Key, name: string, cid: string, query: Record<string, string | boolean> = {}): Promise<CallResult<NameAnswer>> {
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

// ---- DNSLink ----

export interface DnsLinkEntry {
  domain: string;
  path: string;
}

/** `dnslinks.<id>.domain` / `.path` of the fixtures' dnslink.yml files (read with a regex: no YAML package). */
export function fixtureDnsLinks(): DnsLinkEntry[] {
  const root = join(fixturesDir, 'gateway-conformance', 'fixtures');
  const entries: DnsLinkEntry[] = [];
  for (const folder of readdirSync(root, { withFileTypes: true })) {
    if (!folder.isDirectory() || !existsSync(join(root, folder.name, 'dnslink.yml'))) continue;
    let domain: string | undefined;
    for (const line of readFileSync(join(root, folder.name, 'dnslink.yml'), 'utf8').split('\n')) {
      const field = /^\s+(domain|path):\s*(\S+)/.exec(line);
      if (field === null) continue;
      if (field[1] === 'domain') domain = field[2];
      else if (domain !== undefined && field[2] !== undefined) {
        entries.push({ domain, path: field[2] });
        domain = undefined;
      }
    }
  }
  return entries;
}

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, as `--dns-resolver` takes it. */
  address: string;
  /** TXT records by host (lower case); each record is a list of character-strings. */
  txt: Map<string, string[][]>;
  /** Hosts answered with SERVFAIL. */
  failing: Set<string>;
  /** Every question asked, in order (lower-case host names). */
  queries: string[];
  close(): Promise<void>;
}

/** A real DNS server on loopback UDP (a free port) answering TXT questions from `txt`; others get NXDOMAIN. */
export async function startDnsServer(): Promise<TestDnsServer> {
  const txt = new Map<string, string[][]>();
  const failing = new Set<string>();
  const queries: string[] = [];
  const { Packet } = dns2;
  const server = dns2.createServer({
    udp: { type: 'udp4' },
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      const host = (question?.name ?? '').toLowerCase();
      queries.push(host);
      const records = txt.get(host);
      if (failing.has(host)) response.header.rcode = Packet.RCODE.SERVFAIL;
      else if (records === undefined) response.header.rcode = Packet.RCODE.NXDOMAIN;
      else if (question?.type === Packet.TYPE.TXT) {
        for (const data of records) {
          response.answers.push(Packet.createResourceFromQuestion(question, { type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data }));
        }
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = addresses.udp?.port;
  if (port === undefined) throw new Error('dns server did not bind');
  return { address: `127.0.0.1:${port}`, txt, failing, queries, close: () => server.close() };
}

/** Serves `dnslink=<path>` at `_dnslink.<domain>` (or at `<domain>` itself with `atApex`). */
export function addDnsLink(dns: TestDnsServer, domain: string, path: string, options: { atApex?: boolean } = {}): void {
  const host = options.atApex ? domain : `_dnslink.${domain}`;
  dns.txt.set(host.toLowerCase(), [...(dns.txt.get(host.toLowerCase()) ?? []), [`dnslink=${path}`]]);
}
