import type { CID } from 'multiformats/cid';
import type { ValidRecord } from './records.js';

/** What a name resolves to (resolver.ts). Shared between callers (the cache hands out the same object): read-only. */
export interface Resolution {
  /** What was asked, normalized: the canonical key name, or the lower-case domain. */
  readonly name: string;
  readonly kind: 'ipns' | 'dnslink';
  /** The first hop's value: the record value (`/ipfs/...`) or the DNSLink value. */
  readonly value: string;
  /** Content root the name leads to, and the path below it ('' or `/a/b`) that the chain added. */
  readonly cid: CID;
  readonly path: string;
  /** Smallest record TTL along the chain; undefined when no hop had one (DNSLink only: TXT TTLs are not exposed). */
  readonly ttlSeconds: number | undefined;
  /** The signed record of the asked name (for `?format=ipns-record`); undefined for DNSLink names. */
  readonly record: Uint8Array | undefined;
  /** That record's sequence number; undefined for DNSLink names. */
  readonly sequence: bigint | undefined;
  /**
   * Every IPNS name on the way is held here (an account's own). False when a record came from elsewhere (the
   * network, or a routing record): the content may then be missing, and the gateway fetches it.
   */
  readonly held: boolean;
}

/** The resolution of a record that points straight at content (one hop); undefined for one that points at a name. */
export function directResolution(record: ValidRecord, held: boolean): Resolution | undefined {
  const target = record.target;
  if (target.namespace !== 'ipfs') return undefined;
  return {
    name: record.name,
    kind: 'ipns',
    value: record.value,
    cid: target.cid,
    path: target.rest,
    ttlSeconds: record.ttlSeconds,
    record: record.bytes,
    sequence: record.sequence,
    held,
  };
}
