/**
 * IPIP-484's opt-in filters of the Delegated Routing V1 answers (`?filter-addrs=`, `?filter-protocols=`), as
 * ipfs/specs routing/http-routing-v1 states them and boxo's routing/http/filters applies them.
 */

/** One provider or peer as the routing API writes it (the `peer` schema). */
export interface PeerRecord {
  Schema: 'peer';
  ID: string;
  Addrs: string[];
  Protocols: string[];
}

export interface RecordFilters {
  /** Lower-case network protocol names; `!name` excludes; `unknown` keeps a record without addresses. */
  addrs: string[];
  /** Lower-case transfer protocol names; `unknown` keeps a record without protocols. */
  protocols: string[];
}

/** A comma-separated filter parameter: its names, trimmed and lower-cased (filtering is case-insensitive). */
export function parseFilterParam(value: string): string[] {
  return value
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
}

/** Multiaddr protocols that are followed by a value (the rest stand alone, as `/http`, `/tls`, `/quic-v1`). */
const WITH_VALUE = new Set([
  'ip4',
  'ip6',
  'ip6zone',
  'dns',
  'dns4',
  'dns6',
  'dnsaddr',
  'tcp',
  'udp',
  'sctp',
  'p2p',
  'ipfs',
  'sni',
  'http-path',
  'certhash',
  'onion',
  'onion3',
  'garlic32',
  'garlic64',
  'unix',
]);

/** The protocol names of a multiaddr in its text form: `/ip4/1.2.3.4/tcp/80/http` → ip4, tcp, http. */
export function multiaddrProtocols(addr: string): string[] {
  const parts = addr.split('/').slice(1);
  const names: string[] = [];
  for (let at = 0; at < parts.length; at++) {
    const name = (parts[at] ?? '').toLowerCase();
    if (name === '') continue;
    names.push(name);
    if (WITH_VALUE.has(name)) at++;
  }
  return names;
}

function addrPasses(addr: string, positive: string[], negative: string[]): boolean {
  const names = multiaddrProtocols(addr);
  if (negative.some((name) => names.includes(name))) return false;
  return positive.length === 0 || positive.some((name) => names.includes(name));
}

/**
 * The record as the filters let it through, or null when they leave it out: `filter-protocols` keeps a record
 * that lists one of the names (unchanged, all its protocols), `filter-addrs` keeps the addresses that pass
 * (none passing: the record is left out).
 */
export function filterRecord(record: PeerRecord, filters: RecordFilters): PeerRecord | null {
  if (filters.protocols.length > 0) {
    const own = record.Protocols.map((name) => name.toLowerCase());
    const keep = own.length === 0 ? filters.protocols.includes('unknown') : filters.protocols.some((name) => own.includes(name));
    if (!keep) return null;
  }
  if (filters.addrs.length === 0) return record;
  const negative = filters.addrs.filter((name) => name.startsWith('!')).map((name) => name.slice(1));
  const positive = filters.addrs.filter((name) => !name.startsWith('!'));
  if (record.Addrs.length === 0) return positive.includes('unknown') ? record : null;
  const addrs = record.Addrs.filter((addr) => addrPasses(addr, positive, negative));
  return addrs.length === 0 ? null : { ...record, Addrs: addrs };
}
