import type { FastifyReply, FastifyRequest } from 'fastify';
import { CID } from 'multiformats/cid';
import { BadInputError } from '../../base/errors.js';
import { hasBlock } from '../../content/read/blocks.js';
import { PathInsideNodeError } from '../../content/read/errors.js';
import { inspectNode } from '../../content/read/inspect-node.js';
import { resolvePath } from '../../content/read/resolve-path.js';
import { usesSignature } from '../auth.js';
import { canonicalIpnsName } from './canonical-name.js';
import { serveCar } from './car.js';
import { serveCodec } from './codec.js';
import { serveDirectory } from './dir-listing.js';
import { serveFile } from './file.js';
import { serveIpnsRecord } from './ipns-record.js';
import { chooseFormat } from './negotiate.js';
import { serveRaw } from './raw.js';
import { parseRequestTarget } from './request-target.js';
import { cachedResolution, resolutionKey, type Resolution } from './resolution-cache.js';
import { serveTar } from './tar.js';
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

/** Aborts store reads when the client goes away before the response is complete. */
function abortOnClose(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * The request's abort signal, made when first asked for: the steps every request takes (path resolution,
 * one node read, a small file read whole) are short and bounded and go without one, and an AbortController
 * with its close listener cost several microseconds a request (test/bench/gateway.ts, 4 KiB files). Streamed
 * bodies, name resolution and listings ask for it.
 */
function lazySignal(reply: FastifyReply): () => AbortSignal {
  let signal: AbortSignal | undefined;
  return () => (signal ??= abortOnClose(reply));
}

/**
 * Statuses the shared error table has no code for (412 only-if-cached miss, 501 path inside an IPLD node):
 * answered here with the same JSON envelope.
 */
function replyStatus(reply: FastifyReply, status: number, msg: string): void {
  void reply
    .code(status)
    .header('content-type', 'application/json')
    .send(JSON.stringify({ code: status, msg }));
}

/** One gateway request, GET or HEAD: resolve the content path, then hand it to the handler of its format. */
export async function dispatch(request: FastifyRequest, reply: FastifyReply, deps: GatewayDeps, head: boolean): Promise<void> {
  const target = parseRequestTarget(request.url);
  const choice = chooseFormat(target.query, request.headers.accept, target.namespace);
  const signal = lazySignal(reply);

  let resolution: Resolution;
  let ttlSeconds: number | undefined;
  // Built once, not spread: `signal` is a getter that must stay lazy.
  function gatewayContext({ root, resolved }: Resolution): GatewayContext {
    return {
      request,
      reply,
      deps,
      head,
      get signal() {
        return signal();
      },
      target,
      choice,
      root,
      ttlSeconds,
      resolved,
    };
  }
  const onlyIfCached = (request.headers['cache-control'] ?? '').includes('only-if-cached');
  try {
    if (target.namespace === 'ipfs' && !onlyIfCached && choice.format !== 'ipns-record') {
      // The common case: an immutable path, resolved once while its blocks are held (resolution-cache.ts).
      resolution = await cachedResolution(deps.blockstore, resolutionKey(target.rootText, target.segments), () =>
        resolveFrom(deps, parseCid(target.rootText), target.segments),
      );
    } else {
      let root: CID;
      let prefix: string[] = [];
      let record: Uint8Array | undefined;
      if (target.namespace === 'ipns') {
        const canonical = canonicalIpnsName(target.rootText);
        // A signed request is served in place (contract section 2): its signature covers this URL only.
        if (canonical !== undefined && !usesSignature(request.headers)) {
          const rest = target.rawPath.slice(`/ipns/${target.rootText}`.length);
          void reply.redirect(`/ipns/${canonical}${rest}${target.search}`, 302);
          return;
        }
        const name = await deps.resolveName(canonical ?? target.rootText, signal());
        root = name.cid;
        prefix = name.path;
        ttlSeconds = name.ttlSeconds;
        record = name.record;
      } else {
        root = parseCid(target.rootText);
      }
      if (choice.format === 'ipns-record') {
        serveIpnsRecord(gatewayContext({ root, resolved: { cid: root, roots: [root], visited: [] } }), record);
        return;
      }
      if (onlyIfCached && !(await hasBlock(deps.blockstore, root))) {
        replyStatus(reply, 412, `cid: ${root.toString()} is not held locally (only-if-cached)`);
        return;
      }
      resolution = await resolveFrom(deps, root, [...prefix, ...target.segments]);
    }
  } catch (err) {
    if (err instanceof PathInsideNodeError) {
      replyStatus(reply, 501, err.message);
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
  const info = await inspectNode(deps.blockstore, resolved.cid);
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
