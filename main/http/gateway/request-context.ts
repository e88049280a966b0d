import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CID } from 'multiformats/cid';
import type { ResolvedPath } from '../../content/read/resolve-path.js';
import type { FormatChoice } from './negotiate.js';
import type { RequestTarget } from './request-target.js';
import type { GatewayContext, GatewayDeps } from './types.js';

/** Aborts store reads when the client goes away before the response is complete. */
export function abortOnClose(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * One resolved gateway request. A class, not an object literal: its abort signal is made when first asked
 * for (the steps every request takes are short and bounded and go without one; an AbortController with its
 * close listener costs several microseconds), and a getter on a literal made per request gives every request
 * an object of its own shape, which made the handlers' property reads slow and cost about a fifth of a small
 * file's request (test/bench/gateway.ts, 4 KiB files). Streamed bodies, name resolution and listings ask for
 * the signal.
 */
export class RequestContext implements GatewayContext {
  private abortSignal: AbortSignal | undefined;

  constructor(
    readonly request: FastifyRequest,
    readonly reply: FastifyReply,
    readonly deps: GatewayDeps,
    readonly head: boolean,
    readonly target: RequestTarget,
    readonly choice: FormatChoice,
    readonly root: CID,
    readonly resolved: ResolvedPath,
    readonly ttlSeconds: number | undefined,
  ) {}

  get signal(): AbortSignal {
    return (this.abortSignal ??= abortOnClose(this.reply));
  }
}
