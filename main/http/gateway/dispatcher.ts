import type { FastifyReply, FastifyRequest } from 'fastify';
import { CID } from 'multiformats/cid';
import { ErrorCodes, type ErrorCode } from '../../../shared/error-codes.js';
import { BadInputError } from '../../base/errors.js';
import { hasBlock } from '../../content/read/blocks.js';
import { PathInsideNodeError } from '../../content/read/errors.js';
import { heldNode, inspectNode } from '../../content/read/inspect-node.js';
import { resolvePath } from '../../content/read/resolve-path.js';
import { usesSignature } from '../auth.js';
import { failureEnvelope } from '../error-status.js';
import { canonicalIpnsName } from './canonical-name.js';
import { serveCar } from './car.js';
import { serveCodec } from './codec.js';
import { serveDirectory } from './dir-listing.js';
import { serveFile } from './file.js';
import { serveIpnsRecord } from './ipns-record.js';
import { chooseFormat } from './negotiate.js';
import { serveRaw } from './raw.js';
import { awaitNewerRecord, parseRecordWait, PUSH_HEADER } from './record-wait.js';
import { parseRequestTarget } from './request-target.js';
import { cachedResolution, type Resolution } from './resolution-cache.js';
import { serveTar } from './tar.js';
import { abortOnClose, RequestContext } from './request-context.js';
import type { GatewayContext, GatewayDeps } from './types.js';

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

/** One gateway request, GET or HEAD: resolve the content path, then hand it to the handler of its format. */
export async function dispatch(request: FastifyRequest, reply: FastifyReply, given: GatewayDeps, head: boolean): Promise<void> {
  const target = parseRequestTarget(request.url);
  const choice = chooseFormat(target.search, request.headers.accept, target.namespace);
  let ttlSeconds: number | undefined;
  // What the request reads through: the store, or for a name held elsewhere the store and the network.
  let deps = given;
  const gatewayContext = ({ root, resolved }: Resolution): GatewayContext =>
    new RequestContext(request, reply, deps, head, target, choice, root, resolved, ttlSeconds);

  let resolution: Resolution;
  const onlyIfCached = (request.headers['cache-control'] ?? '').includes('only-if-cached');
  try {
    if (target.namespace === 'ipfs' && !onlyIfCached && choice.format !== 'ipns-record') {
      // The common case: an immutable path, resolved once while its blocks are held (resolution-cache.ts).
      const cached = cachedResolution(deps.blockstore, target.key, () => resolveFrom(deps, parseCid(target.rootText), target.segments));
      // A hit is used as it is: awaiting a value that is already there still costs a turn of the microtask queue.
      resolution = cached instanceof Promise ? await cached : cached;
    } else {
      let root: CID;
      let prefix: readonly string[] = [];
      let record: Uint8Array | undefined;
      let nameKey: string | undefined;
      if (target.namespace === 'ipns') {
        const canonical = canonicalIpnsName(target.rootText);
        // A signed request is served in place (contract section 2): its signature covers this URL only.
        if (canonical !== undefined && !usesSignature(request.headers)) {
          const rest = target.rawPath.slice(`/ipns/${target.rootText}`.length);
          void reply.redirect(`/ipns/${canonical}${rest}${target.search}`, 302);
          return;
        }
        const nameText = canonical ?? target.rootText;
        const signal = (): AbortSignal => abortOnClose(reply);
        const answer = deps.resolveName(nameText, signal);
        let name = answer instanceof Promise ? await answer : answer;
        if (choice.format === 'ipns-record') {
          // The long-poll of a name held here (record-wait.ts): a record answer says it may be waited for.
          const wait = parseRecordWait(request.headers);
          if (name.held !== false && deps.nameChanges !== undefined) {
            void reply.header(PUSH_HEADER, '1');
            const newer = wait === undefined ? name : await awaitNewerRecord(deps, nameText, name, wait, signal);
            if (newer === undefined) {
              if (!reply.raw.destroyed) void reply.code(304).header('cache-control', 'no-cache').send();
              return;
            }
            name = newer;
          }
        }
        root = name.cid;
        prefix = name.path;
        ttlSeconds = name.ttlSeconds;
        record = name.record;
        nameKey = name.key;
        if (name.held === false) deps = foreignDeps(given);
      } else {
        root = parseCid(target.rootText);
      }
      if (choice.format === 'ipns-record') {
        serveIpnsRecord(gatewayContext({ root, resolved: { cid: root, roots: [root], visited: [] } }), record);
        return;
      }
      if (onlyIfCached) {
        if (!(await hasBlock(deps.blockstore, root))) {
          replyFailure(reply, ErrorCodes.notCached, `cid: ${root.toString()} is not held locally (only-if-cached)`);
          return;
        }
        resolution = await resolveFrom(deps, root, [...prefix, ...target.segments]);
      } else {
        // What a name points at is immutable content: its resolution is cached like an /ipfs path's, under
        // the content's own key (a publish hands the name a new answer, hence a new key).
        const key = nameKey === undefined ? target.key : target.segments.length === 0 ? nameKey : `${nameKey}/${target.segments.join('/')}`;
        const from = root;
        const cached = cachedResolution(deps.blockstore, key, () => resolveFrom(deps, from, [...prefix, ...target.segments]));
        resolution = cached instanceof Promise ? await cached : cached;
      }
    }
  } catch (err) {
    if (err instanceof PathInsideNodeError) {
      replyFailure(reply, ErrorCodes.notImplemented, err.message);
      return;
    }
    throw err;
  }

  const { resolved } = resolution;
  const ctx = gatewayContext(resolution);

  switch (choice.format) {
    case 'car':
      return serveCar(ctx);
    case 'raw':
      return serveRaw(ctx);
    case 'tar':
      return serveTar(ctx);
    case 'dag-json':
    case 'dag-cbor':
    case 'json':
    case 'cbor':
      return serveCodec(ctx);
    default:
      break;
  }
  const info = heldNode(deps.blockstore, resolved.cid) ?? (await inspectNode(deps.blockstore, resolved.cid));
  switch (info.kind) {
    case 'file':
    case 'symlink':
      return serveFile(ctx, info, { name: target.segments.at(-1) });
    case 'directory':
    case 'hamt-directory':
      return serveDirectory(ctx, info);
    case 'dag-json':
    case 'dag-cbor':
    case 'json':
    case 'cbor':
      return serveCodec(ctx, info);
    default:
      return serveRaw(ctx);
  }
}
