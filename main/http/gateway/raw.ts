import { getBlock } from '../../content/read/blocks.js';
import { contentDisposition, replyNotModified, setCacheHeaders } from './headers.js';
import { sendRanged } from './send-body.js';
import type { GatewayContext } from './types.js';

/** One block as stored (application/vnd.ipld.raw), any codec; Range applies to the block's bytes. */
export async function serveRaw(ctx: GatewayContext): Promise<void> {
  const { reply, choice } = ctx;
  const cid = ctx.resolved.cid;
  const block = await getBlock(ctx.deps.blockstore, cid, { signal: ctx.signal });
  setCacheHeaders(ctx, { etag: `"${cid.toString()}.raw"`, immutable: true });
  if (replyNotModified(ctx)) return;
  reply.header('content-type', 'application/vnd.ipld.raw');
  reply.header('content-disposition', contentDisposition('attachment', choice.filename ?? `${cid.toString()}.bin`));
  sendRanged(ctx, block.byteLength, (offset, length) => block.subarray(offset, offset + length));
}
