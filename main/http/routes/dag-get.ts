import type { FastifyInstance } from 'fastify';
import { getBlock, type ReadBlockstore } from '../../content/read/blocks.js';
import { dagJsonView } from '../../content/read/dag-view.js';
import { DagGetQuery } from '../input/dag-get-input.js';
import { requestInput } from '../input/request-input.js';

export interface DagGetDeps {
  blockstore: ReadBlockstore;
}

/**
 * `GET /api/v0/dag/get?arg=<cid>`: the dag-json form of one node (contract section 5), not wrapped in the
 * envelope. dag-pb gives `{"Data":{"/":{"bytes":"<base64>"}},"Links":[{"Hash":{"/":cid},"Name","Tsize"}]}`
 * (Data omitted when the node has none); raw, dag-cbor and dag-json give their own dag-json view.
 */
export function dagGetRoutes(app: FastifyInstance, deps: DagGetDeps): void {
  app.get('/api/v0/dag/get', { config: { access: 'read' } }, async (request, reply) => {
    const { arg: cid } = requestInput(DagGetQuery, request.query);
    const block = await getBlock(deps.blockstore, cid);
    const view = dagJsonView(cid, block);
    return reply
      .code(200)
      .type('application/json')
      .send(Buffer.from(view.buffer, view.byteOffset, view.byteLength));
  });
}
