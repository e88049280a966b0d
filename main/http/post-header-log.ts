import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from '../base/logger.js';
import { mapError } from './error-status.js';

/**
 * Logs a response cut short after its headers were sent, when all the client sees is a body that ends early:
 * method, route and path and status, never the query string (an upload address or a signature may be in it)
 * nor any header. A fault of ours (500) is an error, anything else a warning.
 */
export function logCutShort(logger: Logger, request: FastifyRequest, status: number, error: unknown): void {
  const fields = { method: request.method, route: request.routeOptions.url, path: request.url.split('?')[0], status, error };
  const message = 'response cut short after its headers were sent';
  if (mapError(error).fault) logger.error(message, fields);
  else logger.warn(message, fields);
}

/**
 * Fastify's own logger is off (it would log every request, with its query string). What it reports through
 * this controller that the error handler never sees, a body stream of any route (a renderer file, say)
 * failing after the headers went out, goes to the server's logger instead. The gateway streams its bodies
 * itself and logs such failures where it does (gateway/send-body.ts).
 */
export class PostHeaderLogController extends LogController {
  constructor(private readonly logger: Logger) {
    super();
  }

  override streamError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    // The client went away before the body ended: nothing of ours failed.
    if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' || request.raw.destroyed) return;
    logCutShort(this.logger, request, reply.statusCode, error);
  }
}
