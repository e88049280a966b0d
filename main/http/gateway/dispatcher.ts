import type { FastifyReply, FastifyRequest } from 'fastify';
import { CID } from 'multiformats/cid';
import { ErrorCodes, type ErrorCode } from '../../../shared/error-codes.js';
import { BadInputError } from '../../base/errors.js';
import { hasBlock } from '../../content/read/blocks.js';
import { PathInsideNodeError } from '../../content/read/errors.js';
import { resolvePath } from '../../content/read/resolve-path.js';
import { usesSignature } from '../auth.js';
import { failureEnvelope } from '../error-status.js';
import { canonicalIpnsName } from './canonical-name.js';
import { canonicalLocation, isImmutableRequest, resolutionKey } from './dispatch-paths.js';
import { serveIpnsRecord } from './ipns-record.js';
import { chooseFormat, type FormatChoice } from './negotiate.js';
import { awaitNewerRecord, parseRecordWait, PUSH_HEADER } from './record-wait.js';
import { parseRequestTarget, type RequestTarget } from './request-target.js';
import { cachedResolution, type Resolution } from './resolution-cache.js';
import { abortOnClose, RequestContext } from './request-context.js';
import { serveResolved } from './serve-resolved.js';
import type { GatewayDeps, ResolvedName } from './types.js';

function parseCid(text: string): CID {
  try {
    return CID.parse(text);
  } catch {
    throw new BadInputError(`cid: "${text}" is not a valid CID`);
  }
}

async function resolveFrom(deps: GatewayDeps, root: CID, segments: readonly string[]): Promise<Resolution> {
  return { root, resolved: await resolvePath(deps.blockstore, root, segments) };
}

const foreignDepsMemo = new WeakMap<GatewayDeps, GatewayDeps>();

/**
 * The deps a request for a name held elsewhere is served with: the same, reading through the store to the
 * network (contract section 11). Made once per deps, so the handlers' memos keyed by object still hit.
 */
function foreignDeps(deps: GatewayDeps): GatewayDeps {
  const through = deps.foreignBlockstore;
  if (through === undefined) return deps;
  let made = foreignDepsMemo.get(deps);
  if (made === undefined) {
    made = { ...deps, blockstore: through };
    foreignDepsMemo.set(deps, made);
  }
  return made;
}

/**
 * The gateway's own refusals (412 only-if-cached miss; 501 a path inside an IPLD node, which elsewhere is a
 * 400): answered here with the contract's envelope.
 */
function replyFailure(reply: FastifyReply, error: ErrorCode, msg: string): void {
  const envelope = failureEnvelope(error, msg);
  void reply.code(envelope.code).header('content-type', 'application/json').send(JSON.stringify(envelope));
}

/** Answers a path inside an IPLD node (501); false for any other error, which the caller rethrows. */
function refusedInsideNode(reply: FastifyReply, err: unknown): boolean {
  if (!(err instanceof PathInsideNodeError)) return false;
  replyFailure(reply, ErrorCodes.notImplemented, err.message);
  return true;
}

/**
 * One gateway request, GET or HEAD: resolve the content path, then hand it to the handler of its format.
 * Not async itself: each request runs exactly one async function, the one for its way in.
 */
export function dispatch(request: FastifyRequest, reply: FastifyReply, deps: GatewayDeps, head: boolean): Promise<void> {
  try {
    const target = parseRequestTarget(request.url);
    const choice = chooseFormat(target.search, request.headers.accept, target.namespace);
    const onlyIfCached = (request.headers['cache-control'] ?? '').includes('only-if-cached');
    if (isImmutableRequest(target, choice, onlyIfCached)) return serveImmutable(request, reply, deps, head, target, choice);
    return serveNamedOrUncached(request, reply, deps, head, target, choice, onlyIfCached);
  } catch (err) {
    // What a bad path or format throws reaches the caller as the rejection it always was.
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
}

/** The common case: an immutable path, resolved once while its blocks are held (resolution-cache.ts). */
async function serveImmutable(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: GatewayDeps,
  head: boolean,
  target: RequestTarget,
  choice: FormatChoice,
): Promise<void> {
  let resolution: Resolution;
  try {
    const cached = cachedResolution(deps.blockstore, target.key, () => resolveFrom(deps, parseCid(target.rootText), target.segments));
    // A hit is used as it is: awaiting a value that is already there still costs a turn of the microtask queue.
    resolution = cached instanceof Promise ? await cached : cached;
  } catch (err) {
    if (refusedInsideNode(reply, err)) return;
    throw err;
  }
  return serveResolved(new RequestContext(request, reply, deps, head, target, choice, resolution.root, resolution.resolved, undefined));
}

/**
 * The long-poll of a name held here (record-wait.ts): a record answer says it may be waited for. Undefined:
 * nothing newer came before the wait ended. A promise only when there is a wait.
 */
function newerRecord(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: GatewayDeps,
  nameText: string,
  name: ResolvedName,
  signal: () => AbortSignal,
): ResolvedName | undefined | Promise<ResolvedName | undefined> {
  const wait = parseRecordWait(request.headers);
  if (name.held === false || deps.nameChanges === undefined) return name;
  void reply.header(PUSH_HEADER, '1');
  return wait === undefined ? name : awaitNewerRecord(deps, nameText, name, wait, signal);
}

/** `/ipns` paths, a record asked for, and only-if-cached: a name's answer or a store probe comes first. */
async function serveNamedOrUncached(
  request: FastifyRequest,
  reply: FastifyReply,
  given: GatewayDeps,
  head: boolean,
  target: RequestTarget,
  choice: FormatChoice,
  onlyIfCached: boolean,
): Promise<void> {
  // What the request reads through: the store, or for a name held elsewhere the store and the network.
  let deps = given;
  let name: ResolvedName | undefined;
  let resolution: Resolution;
  try {
    if (target.namespace === 'ipns') {
      const canonical = canonicalIpnsName(target.rootText);
      // A signed request is served in place (contract section 2): its signature covers this URL only.
      if (canonical !== undefined && !usesSignature(request.headers)) {
        void reply.redirect(canonicalLocation(target, canonical), 302);
        return;
      }
      const nameText = canonical ?? target.rootText;
      const signal = (): AbortSignal => abortOnClose(reply);
      const answer = deps.resolveName(nameText, signal);
      name = answer instanceof Promise ? await answer : answer;
      if (choice.format === 'ipns-record') {
        const newer = newerRecord(request, reply, deps, nameText, name, signal);
        name = newer instanceof Promise ? await newer : newer;
        if (name === undefined) {
          if (!reply.raw.destroyed) void reply.code(304).header('cache-control', 'no-cache').send();
          return;
        }
      }
      if (name.held === false) deps = foreignDeps(given);
    }
    const root = name?.cid ?? parseCid(target.rootText);
    if (choice.format === 'ipns-record') {
      const resolved = { cid: root, roots: [root], visited: [] };
      serveIpnsRecord(new RequestContext(request, reply, deps, head, target, choice, root, resolved, name?.ttlSeconds), name?.record);
      return;
    }
    const prefix = name?.path ?? [];
    if (onlyIfCached) {
      if (!(await hasBlock(deps.blockstore, root))) {
        replyFailure(reply, ErrorCodes.notCached, `cid: ${root.toString()} is not held locally (only-if-cached)`);
        return;
      }
      resolution = await resolveFrom(deps, root, [...prefix, ...target.segments]);
    } else {
      const from = deps;
      const cached = cachedResolution(deps.blockstore, resolutionKey(target, name?.key), () => resolveFrom(from, root, [...prefix, ...target.segments]));
      resolution = cached instanceof Promise ? await cached : cached;
    }
  } catch (err) {
    if (refusedInsideNode(reply, err)) return;
    throw err;
  }
  return serveResolved(new RequestContext(request, reply, deps, head, target, choice, resolution.root, resolution.resolved, name?.ttlSeconds));
}
