import { NotAcceptableError } from '../../base/errors.js';
import { exportTar } from '../../content/read/export-tar.js';
import { inspectNode } from '../../content/read/inspect-node.js';
import { contentDisposition, replyNotModified, setCacheHeaders } from './headers.js';
import { sendBody } from './send-body.js';
import type { GatewayContext } from './types.js';

/** A TAR of the UnixFS file or tree, its top entry named after the CID. */
export async function serveTar(ctx: GatewayContext): Promise<void> {
  const { reply, choice, deps } = ctx;
  const cid = ctx.resolved.cid;
  const info = await inspectNode(deps.blockstore, cid, { signal: ctx.signal });
  if (!['file', 'symlink', 'directory', 'hamt-directory'].includes(info.kind)) {
    throw new NotAcceptableError(`format: tar needs UnixFS content, ${cid.toString()} is ${info.kind}`);
  }
  // Made now: it refuses a top directory whose names cannot be archived before any header is set.
  const archive = exportTar(deps.blockstore, info, cid.toString(), { signal: ctx.signal });
  setCacheHeaders(ctx, { etag: `W/"${cid.toString()}.x-tar"`, immutable: true });
  if (replyNotModified(ctx)) return;
  reply.header('content-type', 'application/x-tar');
  reply.header('content-disposition', contentDisposition('attachment', choice.filename ?? `${cid.toString()}.tar`));
  sendBody(ctx, 200, () => archive);
}
