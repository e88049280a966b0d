import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CID } from 'multiformats/cid';
import type { Logger } from '../../base/logger.js';
import type { ReadBlockstore } from '../../content/read/blocks.js';
import type { ResolvedPath } from '../../content/read/resolve-path.js';
import type { RequestTarget } from './request-target.js';
import type { FormatChoice } from './negotiate.js';

export interface ResolvedName {
  cid: CID;
  /** Path segments after the CID in the name's value (`/ipfs/<cid>/a/b` gives ["a", "b"]). */
  path: string[];
  /** The CID and path as one string (`<cid>/a/b`): the key of the gateway's resolution cache. */
  key: string;
  /** Record TTL (IPNS) or DNS TTL (DNSLink); 0 when unknown. */
  ttlSeconds: number;
  /** The signed IPNS record, when the name is an IPNS key (absent for DNSLink). */
  record?: Uint8Array;
  /** That record's sequence number. */
  sequence?: bigint;
  /** False when a record on the way is of a name held elsewhere: the content is read through to the network. Absent: held. */
  held?: boolean;
}

export interface GatewayDeps {
  blockstore: ReadBlockstore;
  /**
   * The store read through to the network (network/read-through-blocks.ts), for `/ipns/<name>` of a name held
   * elsewhere (contract section 11); absent, such content is served from the store only.
   */
  foreignBlockstore?: ReadBlockstore;
  /** The server's logger: a failure after the headers went out cannot reach the client, so it is logged. */
  logger: Logger;
  /**
   * IPNS + DNSLink. Throws NotFoundError for an unknown name. A cached name is answered as it is, not in a
   * promise, with the same object each time; `signal` is asked for only when resolving waits on something.
   */
  resolveName(name: string, signal: () => AbortSignal): ResolvedName | Promise<ResolvedName>;
  /**
   * Settles at the next change of a name's record here, or when `signal` ends (the resolver's nextChange): the
   * long-poll of a record (record-wait.ts). Absent: a record is always answered at once, with no push marker.
   */
  nameChanges?(name: string, signal: AbortSignal): Promise<void>;
  /**
   * Called once before a body is sent (after headers are known), with the body's length in bytes, or 0 when
   * the length is not known in advance (CAR, TAR, generated listings). Throws (LimitReachedError) to refuse;
   * a promise only when what it checks against is not at hand in memory.
   */
  beforeBody?(request: FastifyRequest, bytes: number): void | Promise<void>;
  /** Called for every chunk of body handed to the response stream, with its length (egress accounting). */
  onBodyBytes?(request: FastifyRequest, bytes: number): void;
}

/** Everything a format handler needs about one request, after the content path is resolved. */
export interface GatewayContext {
  request: FastifyRequest;
  reply: FastifyReply;
  deps: GatewayDeps;
  head: boolean;
  signal: AbortSignal;
  target: RequestTarget;
  choice: FormatChoice;
  /** The CID the content path starts from (for /ipns: what the name resolved to). */
  root: CID;
  resolved: ResolvedPath;
  /** Set for /ipns requests. */
  ttlSeconds?: number;
}
