import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { Clock } from '../base/clock.js';
import { unixSeconds } from '../base/clock.js';
import type { ServiceConfig } from '../base/config.js';
import type { Logger } from '../base/logger.js';
import { ErrorCodes } from '../../shared/error-codes.js';
import { UnauthorizedError } from '../base/errors.js';
import { requireCapability } from '../accounts/permissions.js';
import type { AccountsContext } from '../accounts/context.js';
import type { AccountRow } from '../store/repositories/accounts.js';
import { authenticate, authenticateBearer, type AuthContext } from './auth.js';
import { answerClientError } from './client-error.js';
import { CONTENT_ISOLATION_HEADERS, isContentPath, isolateContentResponse } from './content-isolation.js';
import { applyCors } from './cors.js';
import { failureEnvelope, mapError } from './error-status.js';
import { checkHost } from './host-guard.js';
import { PostHeaderLogController } from './post-header-log.js';
import { checkRequestTime, queryTs } from './request-time.js';
import { isStepTwo } from './upload-step-two.js';
import type { RouteAccess } from './route-access.js';

export interface ServerDeps {
  config: ServiceConfig;
  /** /ipfs and /ipns answer without credentials (the `public_gateway` setting this run started with). */
  publicGateway: boolean;
  clock: Clock;
  logger: Logger;
  accounts: AccountsContext;
  /** Egress of anonymous gateway requests (--public-gateway) is charged to the owner. */
  ownerAccountId: number;
}

function hasCredentials(headers: Record<string, unknown>): boolean {
  return headers['x-access-key'] !== undefined;
}

/** A client must send a request's headers within this long. */
const HEADERS_TIMEOUT_MS = 30_000;

/**
 * The Fastify instance with the cross-cutting rules: Host guard, CORS, `ts`, authentication and
 * permissions (per route through `config.access`), and the one error handler that turns every failure
 * into the contract's envelope. Routes are registered by the caller (app/create-app.ts).
 */
export async function buildServer(deps: ServerDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    logController: new PostHeaderLogController(deps.logger),
    routerOptions: { maxParamLength: 4096 },
    bodyLimit: 16 * 1024 * 1024,
    forceCloseConnections: true,
    clientErrorHandler: answerClientError,
    // No time limit on a whole request: an upload's body may take hours. Step 2 has an idle timeout instead
    // (uploadIdleTimeoutMs); the headers of any request must arrive within HEADERS_TIMEOUT_MS (below).
    requestTimeout: 0,
    // Errors Fastify raises before routing (a URL with broken percent-encoding) get our envelope too.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      if (isContentPath(request.url)) reply.headers(CONTENT_ISOLATION_HEADERS);
      const mapped = mapError(error);
      void reply.code(mapped.status).type('application/json').send(mapped.envelope);
    },
  });
  app.decorateRequest('auth', null);
  // Slow-loris on the headers: Node's default is 60 s, checked every 30 s.
  app.server.headersTimeout = HEADERS_TIMEOUT_MS;

  // Bodies are read by the handlers that want them (JSON whatever its Content-Type, raw upload
  // streams); multipart/form-data is parsed only where uploads are taken (withMultipart below).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  const admitAnonymous = (request: FastifyRequest, owner: AccountRow | null): boolean => {
    if (owner) request.auth = { account: owner, permissions: ['read'], accessKey: null, expiresAt: null };
    return false;
  };
  const admit = (request: FastifyRequest, auth: AuthContext, access: Exclude<RouteAccess, 'public'>): boolean => {
    requireCapability(auth.permissions, access === 'gateway' ? 'read' : access === 'upload' ? 'write' : access);
    request.auth = auth;
    return false;
  };

  /**
   * Host guard, CORS, then `ts`, credentials and permission for the route's access; true when CORS answered.
   * A promise only when the key or the account is not at hand in memory (see authenticate).
   */
  const guardRequest = (request: FastifyRequest, reply: FastifyReply): boolean | Promise<boolean> => {
    // Read once: Fastify builds a new routeOptions object on every read.
    const { access: configured, credentials } = request.routeOptions.config;
    isolateContentResponse(request, reply, configured);
    checkHost(request.headers.host, deps.config.host);
    if (applyCors(request, reply, deps.config.allowOrigins)) return true;
    const access = configured ?? 'account';
    if (access === 'public') return false;
    // Step 2 is authorized by its signed address, which the upload routes check before anything else.
    if (access === 'upload' && isStepTwo(request.url)) return false;
    if (request.is404) {
      // An upload address sent with a method or path no upload route has: refused as an address, not parsed as a call.
      if (isStepTwo(request.url)) throw new UnauthorizedError('upload address does not match this request (method or path)');
      // No route, so no call to authorize: the not-found handler answers 404, not "ts is required".
      return false;
    }
    if (access === 'gateway' && deps.publicGateway && !hasCredentials(request.headers)) {
      const owner = deps.accounts.store.current.account(deps.ownerAccountId);
      if (owner === undefined) return deps.accounts.store.accounts.accountById(deps.ownerAccountId).then((row) => admitAnonymous(request, row));
      return admitAnonymous(request, owner);
    }
    let auth: AuthContext | Promise<AuthContext>;
    // The Pinning Service API has no `ts` and its own credentials (contract section 11).
    if (credentials === 'bearer') auth = authenticateBearer(deps.accounts, request.headers.authorization);
    else {
      checkRequestTime(queryTs(request.url), unixSeconds(deps.clock), deps.config.tsWindowSeconds);
      auth = authenticate(deps.accounts, request.method, request.url, request.headers);
    }
    if (auth instanceof Promise) return auth.then((loaded) => admit(request, loaded, access));
    return admit(request, auth, access);
  };

  // One hook, in callback style: it runs on every request, and each async hook costs a promise and a
  // microtask turn per request (measured in test/bench/auth.ts).
  app.addHook('onRequest', (request, reply, done) => {
    let answered: boolean | Promise<boolean>;
    try {
      answered = guardRequest(request, reply);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (answered instanceof Promise) {
      answered.then(
        (cors) => cors || done(),
        (error: unknown) => done(error as Error),
      );
      return;
    }
    // A preflight answered by CORS is complete: the chain stops here.
    if (!answered) done();
  });
  app.setErrorHandler((error, request, reply) => {
    const mapped = mapError(error);
    if (mapped.fault) deps.logger.error('request failed', { method: request.method, route: request.routeOptions.url, error });
    if (reply.sent) return;
    void reply.code(mapped.status).type('application/json').send(mapped.envelope);
  });

  app.setNotFoundHandler((request, reply) => {
    try {
      checkHost(request.headers.host, deps.config.host);
    } catch (error) {
      const mapped = mapError(error);
      return reply.code(mapped.status).type('application/json').send(mapped.envelope);
    }
    return reply
      .code(404)
      .type('application/json')
      .send(failureEnvelope(ErrorCodes.notFound, `no route for ${request.method} ${request.url.split('?')[0]}`));
  });

  return app;
}

/**
 * Registers `routes` in a scope of their own with the multipart parser: @fastify/multipart adds three
 * async hooks (onRequest, preValidation, onResponse) to every request of the scope it is registered in,
 * which the upload routes need and every other call would pay for (measured in test/bench/auth.ts).
 * The scope inherits the server's hooks, error and not-found handlers.
 */
export async function withMultipart(app: FastifyInstance, routes: (scope: FastifyInstance) => void): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: Number.MAX_SAFE_INTEGER, files: 1, fields: 16, parts: 32 } });
    routes(scope);
  });
}
