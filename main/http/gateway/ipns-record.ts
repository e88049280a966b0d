import { createHash } from 'node:crypto';
import { BadInputError } from '../../base/errors.js';
import { contentDisposition, replyNotModified, setCacheHeaders } from './headers.js';
import { sendBody } from './send-body.js';
import type { GatewayContext } from './types.js';

/** The signed IPNS record of a name (`format=ipns-record`), Cache-Control from its TTL. */
export function serveIpnsRecord(ctx: GatewayContext, record: Uint8Array | undefined): void {
  const { reply, choice, target } = ctx;
  if (record === undefined) throw new BadInputError(`name: ${target.rootText} is not an IPNS key, it has no record`);
  if (target.segments.length > 0) throw new BadInputError('format: ipns-record is served for a name, not a path under it');
  const hash = createHash('sha256').update(record).digest('hex');
  setCacheHeaders(ctx, { etag: `"${hash}"`, immutable: false });
  if (replyNotModified(ctx)) return;
  reply.header('content-type', 'application/vnd.ipfs.ipns-record');
  reply.header('content-disposition', contentDisposition('attachment', choice.filename ?? `${target.rootText}.ipns-record`));
  sendBody(ctx, 200, () => record, record.byteLength);
}
