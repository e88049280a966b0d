import { createHash } from 'node:crypto';
import { NotFoundError } from '../../base/errors.js';
import { hasBlock } from '../../content/read/blocks.js';
import { exportCar } from '../../content/read/export-car.js';
import { contentDisposition, replyNotModified, setCacheHeaders } from './headers.js';
import { sendBody } from './send-body.js';
import type { GatewayContext } from './types.js';

/**
 * A CARv1 of the resolved DAG (trustless gateway): the blocks proving the path, then the target's DAG per
 * dag-scope / entity-bytes, DFS, following links of every codec. Always `order=dfs`, whatever was asked.
 */
export async function serveCar(ctx: GatewayContext): Promise<void> {
  const { reply, choice, deps } = ctx;
  const { cid, visited } = ctx.resolved;
  if (!(await hasBlock(deps.blockstore, cid, { signal: ctx.signal }))) {
    throw new NotFoundError(`cid: ${cid.toString()} is not held locally`);
  }
  const { dups, scope, entityBytes } = choice.car;
  const variant = [scope, entityBytes === undefined ? '' : `${entityBytes.from}:${entityBytes.to ?? '*'}`, dups ? 'y' : 'n', ...visited.map(String)];
  const hash = createHash('sha256').update(variant.join('|')).digest('hex').slice(0, 16);
  // Weak: the same DAG could be written in another order by another version.
  setCacheHeaders(ctx, { etag: `W/"${cid.toString()}.car.${hash}"`, immutable: true });
  if (replyNotModified(ctx)) return;
  reply.header('content-type', `application/vnd.ipld.car; version=1; order=dfs; dups=${dups ? 'y' : 'n'}`);
  reply.header('content-disposition', contentDisposition('attachment', choice.filename ?? `${cid.toString()}.car`));
  reply.header('accept-ranges', 'none');
  sendBody(ctx, 200, () => exportCar(deps.blockstore, cid, { roots: [ctx.root], pathBlocks: visited, dups, scope, entityBytes, signal: ctx.signal }));
}
