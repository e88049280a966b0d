import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCodes } from '../../../shared/error-codes.js';
import type { Clock } from '../../base/clock.js';
import { BadInputError, NotAcceptableError } from '../../base/errors.js';
import { hasBlock, type ReadBlockstore } from '../../content/read/blocks.js';
import type { NamesContext } from '../../names/context.js';
import { tryParseIpnsName } from '../../names/name-parse.js';
import { acceptPutRecord, servedRecord } from '../../names/routing-records.js';
import { MAX_RECORD_BYTES } from '../../names/records.js';
import { httpMultiaddrOfUrl } from '../../network/url-multiaddr.js';
import { failureEnvelope } from '../error-status.js';
import { IpnsNameParams, PeersParams, ProvidersParams, RecordFiltersQuery } from '../input/routing-input.js';
import { requestInput } from '../input/request-input.js';
import { filterRecord, type PeerRecord } from '../routing-filters.js';

/** The transfer protocol Pinfold speaks: the trustless gateway over HTTP. */
const GATEWAY_PROTOCOL = 'transport-ipfs-gateway-http';
const JSON_TYPE = 'application/json';
const NDJSON_TYPE = 'application/x-ndjson';
const IPNS_RECORD_TYPE = 'application/vnd.ipfs.ipns-record';
/** As boxo's server: answers with results are kept 5 minutes, without 15 s, stale ones up to the DHT's 48 h. */
const MAX_AGE_WITH_RESULTS = 300;
const MAX_AGE_WITHOUT_RESULTS = 15;
const MAX_STALE = 48 * 60 * 60;
/** A record with no TTL is kept this long (the spec's default max-age). */
const DEFAULT_RECORD_MAX_AGE = 60;
/** The paths the spec defines under /routing/v1; another method on them is 501, another path 400. */
const KNOWN_PATHS = /^\/routing\/v1\/(providers|peers|ipns|dht)(\/|$)/;

export interface RoutingRoutesDeps {
  blocks: ReadBlockstore;
  names: NamesContext;
  clock: Clock;
  /** This Pinfold's peer ID (network/peer-identity.ts). */
  peerId: string;
  /** The URL the server is reached at, as it announces it. */
  listenUrl(): string;
}

/** Which answer a client asked for: NDJSON only when it says so (the spec: never unasked). */
function negotiate(accept: string | undefined): 'json' | 'ndjson' {
  if (accept === undefined || accept.trim() === '') return 'json';
  const types = accept.split(',').map((part) => (part.split(';')[0] ?? '').trim().toLowerCase());
  if (types.includes(NDJSON_TYPE)) return 'ndjson';
  if (types.includes(JSON_TYPE) || types.includes('*/*') || types.includes('application/*')) return 'json';
  throw new BadInputError(`Accept: the routing API answers ${JSON_TYPE} or ${NDJSON_TYPE}`);
}

function setCaching(reply: FastifyReply, maxAge: number, stale: number, nowMs: number): void {
  void reply.header('cache-control', `public, max-age=${maxAge}, stale-while-revalidate=${stale}, stale-if-error=${stale}`);
  void reply.header('last-modified', new Date(nowMs).toUTCString());
  void reply.header('vary', 'Accept');
}

/** The records as the spec writes them: `{"<key>": [...]}`, or one JSON object a line. */
function sendRecords(reply: FastifyReply, request: FastifyRequest, key: 'Providers' | 'Peers', records: PeerRecord[], nowMs: number): string {
  const format = negotiate(request.headers.accept);
  setCaching(reply, records.length > 0 ? MAX_AGE_WITH_RESULTS : MAX_AGE_WITHOUT_RESULTS, MAX_STALE, nowMs);
  if (format === 'ndjson') {
    void reply.type(NDJSON_TYPE);
    return records.map((record) => `${JSON.stringify(record)}\n`).join('');
  }
  void reply.type(JSON_TYPE);
  return JSON.stringify({ [key]: records });
}

/**
 * The Delegated Routing V1 HTTP API served (contract section 11; ipfs/specs routing/http-routing-v1), only
 * with --public-gateway (registered then; otherwise these paths are 404): Pinfold names itself as the
 * provider of a CID whose block it holds, answers its own peer record, and serves and takes IPNS records.
 * Anyone may call it, as any routing endpoint: the gateway it points at is public too. Errors keep the API's
 * envelope; the statuses are the spec's.
 */
export function routingRoutes(app: FastifyInstance, deps: RoutingRoutesDeps): void {
  const open = { config: { access: 'public' as const } };
  const self = (): PeerRecord => ({ Schema: 'peer', ID: deps.peerId, Addrs: [httpMultiaddrOfUrl(deps.listenUrl())], Protocols: [GATEWAY_PROTOCOL] });
  const selfName = tryParseIpnsName(deps.peerId)?.name;

  app.get('/routing/v1/providers/:cid', open, async (request, reply) => {
    const { cid } = requestInput(ProvidersParams, request.params);
    negotiate(request.headers.accept);
    const filters = requestInput(RecordFiltersQuery, request.query);
    const held = await hasBlock(deps.blocks, cid);
    const record = held ? filterRecord(self(), filters) : null;
    return sendRecords(reply, request, 'Providers', record === null ? [] : [record], deps.clock.nowMs());
  });

  app.get('/routing/v1/peers/:peerId', open, async (request, reply) => {
    const { peerId: asked } = requestInput(PeersParams, request.params);
    negotiate(request.headers.accept);
    const filters = requestInput(RecordFiltersQuery, request.query);
    const record = asked.name === selfName ? filterRecord(self(), filters) : null;
    return sendRecords(reply, request, 'Peers', record === null ? [] : [record], deps.clock.nowMs());
  });

  app.get('/routing/v1/ipns/:name', open, async (request, reply) => {
    const accept = request.headers.accept ?? '';
    if (accept.trim() !== '' && !accept.includes('*/*') && !accept.includes(IPNS_RECORD_TYPE)) {
      throw new NotAcceptableError(`Accept: retry with ${IPNS_RECORD_TYPE}`);
    }
    const { name: parsed } = requestInput(IpnsNameParams, request.params);
    const nowMs = deps.clock.nowMs();
    const record = await servedRecord(deps.names, parsed);
    if (record === null) {
      // The spec: a server answers 200 and anything but a record for "no record" (IPIP-513; 404 is read the same).
      setCaching(reply, MAX_AGE_WITHOUT_RESULTS, MAX_STALE, nowMs);
      return reply.type('text/plain; charset=utf-8').send(`no record of ${parsed.name} here\n`);
    }
    const remaining = Math.max(0, Math.floor((record.validUntilMs - nowMs) / 1000));
    const maxAge = Math.min(record.ttlSeconds > 0 ? record.ttlSeconds : DEFAULT_RECORD_MAX_AGE, remaining);
    setCaching(reply, maxAge, remaining, nowMs);
    const etag = `"${createHash('sha256').update(record.bytes).digest('hex')}"`;
    void reply.header('etag', etag);
    void reply.header('expires', new Date(record.validUntilMs).toUTCString());
    void reply.header('content-disposition', `attachment; filename="${parsed.name}.ipns-record"`);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type(IPNS_RECORD_TYPE).send(Buffer.from(record.bytes.buffer, record.bytes.byteOffset, record.bytes.byteLength));
  });

  app.put('/routing/v1/ipns/:name', open, async (request, reply) => {
    if (!(request.headers['content-type'] ?? '').includes(IPNS_RECORD_TYPE)) {
      throw new NotAcceptableError(`Content-Type: send the record as ${IPNS_RECORD_TYPE}`);
    }
    const { name: parsed } = requestInput(IpnsNameParams, request.params);
    await acceptPutRecord(deps.names, parsed, await readRecordBody(request.raw));
    return reply.code(200).send();
  });

  // The spec: an unknown path under /routing/v1 is 400, a method or path it defines but this server does not
  // implement (the DHT API, providing, another method) 501.
  app.all('/routing/v1/*', open, async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const refusal = KNOWN_PATHS.test(path)
      ? failureEnvelope(ErrorCodes.notImplemented, `${request.method} ${path} is not implemented here`)
      : failureEnvelope(ErrorCodes.badInput, `no routing API at ${path}`);
    return reply.code(refusal.code).type(JSON_TYPE).send(refusal);
  });
}

/** The PUT's body: an IPNS record, at most the size any validator takes (read no further). */
async function readRecordBody(raw: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of raw) {
    length += chunk.byteLength;
    if (length > MAX_RECORD_BYTES) throw new BadInputError(`record must be at most ${MAX_RECORD_BYTES} bytes`);
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  return new Uint8Array(Buffer.concat(chunks));
}
