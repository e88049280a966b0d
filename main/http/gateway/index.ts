import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import '../route-access.js';
import { dispatch } from './dispatcher.js';
import type { GatewayDeps } from './types.js';

export type { GatewayDeps, ResolvedName } from './types.js';
export { gatewayNameResolver } from './name-answers.js';

/**
 * Headers that describe a body; an error answer (416, a refused egress) must not carry them, least of all
 * "immutable". The content-isolation headers (CSP sandbox, nosniff) stay: they belong to every response.
 */
const BODY_HEADERS = ['etag', 'cache-control', 'content-disposition', 'content-type', 'content-length', 'accept-ranges'];

/**
 * Runs the request. When the reply has gone out (the common case), Fastify is given nothing to wait on;
 * otherwise the reply itself, which Fastify awaits until the body is sent (a body gathered or streamed
 * after the handler's promise settles).
 */
function handle(request: FastifyRequest, reply: FastifyReply, deps: GatewayDeps, head: boolean): Promise<FastifyReply | undefined> {
  return dispatch(request, reply, deps, head).then(
    () => (reply.sent ? undefined : reply),
    (err: unknown) => {
      if (!reply.sent) for (const name of BODY_HEADERS) reply.removeHeader(name);
      throw err;
    },
  );
}

/**
 * Registers GET and HEAD for `/ipfs/*` and `/ipns/*` (the path gateway). Errors are thrown as AppError
 * subclasses for the server's error handler; 412 and 501, which have no error code, are answered directly
 * with the JSON envelope. HEAD is its own route so that it never reads content from the store. Routes carry
 * `config.access = 'gateway'` for the server's auth hook (read permission, or anonymous with --public-gateway).
 */
export function gatewayRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  for (const prefix of ['/ipfs/*', '/ipns/*']) {
    app.route({
      method: 'GET',
      url: prefix,
      exposeHeadRoute: false,
      config: { access: 'gateway' },
      handler: (request, reply) => handle(request, reply, deps, false),
    });
    app.route({
      method: 'HEAD',
      url: prefix,
      config: { access: 'gateway' },
      handler: (request, reply) => handle(request, reply, deps, true),
    });
  }
}
