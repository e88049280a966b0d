import type { NodeInfo } from '../../content/read/inspect-node.js';
import { heldNode, inspectNode } from '../../content/read/inspect-node.js';
import { serveCar } from './car.js';
import { serveCodec } from './codec.js';
import { serveDirectory } from './dir-listing.js';
import { serveFile } from './file.js';
import type { ResponseFormat } from './negotiate.js';
import { serveRaw } from './raw.js';
import { serveTar } from './tar.js';
import type { GatewayContext } from './types.js';

type FormatHandler = (ctx: GatewayContext) => Promise<void>;

/** The handler of an explicit format that is served the same whatever the node is; undefined: look at the node. */
export function handlerOfFormat(format: ResponseFormat | null): FormatHandler | undefined {
  switch (format) {
    case 'car':
      return serveCar;
    case 'raw':
      return serveRaw;
    case 'tar':
      return serveTar;
    case 'dag-json':
    case 'dag-cbor':
    case 'json':
    case 'cbor':
      return serveCodec;
    default:
      return undefined;
  }
}

/** The content in its own format: a file's bytes, a listing, a codec's view, else the block as it is. */
function serveNode(ctx: GatewayContext, info: NodeInfo): Promise<void> {
  switch (info.kind) {
    case 'file':
    case 'symlink':
      return serveFile(ctx, info, { name: ctx.target.segments.at(-1) });
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

/**
 * Hands a resolved request to the handler of its format. Not async: a node whose block is held is served
 * without a turn of the microtask queue, as the dispatcher's own tail was.
 */
export function serveResolved(ctx: GatewayContext): Promise<void> {
  const handler = handlerOfFormat(ctx.choice.format);
  if (handler !== undefined) return handler(ctx);
  const { blockstore } = ctx.deps;
  const held = heldNode(blockstore, ctx.resolved.cid);
  if (held !== undefined) return serveNode(ctx, held);
  return inspectNode(blockstore, ctx.resolved.cid).then((info) => serveNode(ctx, info));
}
