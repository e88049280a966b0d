import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Logger } from '../../base/logger.js';
import { requireCapability } from '../../accounts/permissions.js';
import { multiaddrOfUrl } from '../../pins/http-multiaddr.js';
import { addPsaPin, listPsaPins, psaPinOf, removePsaPin, replacePsaPin, type PsaPinsContext } from '../../pins/psa-pins.js';
import { checkHost } from '../host-guard.js';
import { PsaListQuerySchema, PsaPinBody, PsaRequestParams } from '../input/psa-input.js';
import { requestInput } from '../input/request-input.js';
import { readJsonObject } from '../json-body.js';
import { psaPinResults, psaPinStatus } from '../psa-answer.js';
import { mapPsaError } from '../psa-error.js';
import { requireAuth, type RouteAccess } from '../route-access.js';

export interface PsaRouteDeps {
  psa: PsaPinsContext;
  /** The URL the server is reached at (base/reachable-url.ts): Pinfold's one delegate. */
  listenUrl(): string;
  /** The configured `--host`, for the Host guard of requests no route takes. */
  host: string;
  logger: Logger;
}

/** A `Pin` object is a CID, a name, twenty origins and some meta: far below this. */
const MAX_PIN_BODY = 64 * 1024;

/**
 * The IPFS Pinning Service API 1.0.0 at `/psa` (contract section 11): `Authorization: Bearer <token>` (no `ts`),
 * the key's permissions (`pin` to add, `unpin` to remove, both to replace, the account API's `admin` to list and
 * read, as `GET /api/v0/pin`), every answer and failure in the PSA's own shapes, the Host guard and CORS as
 * everywhere (server.ts).
 */
export async function psaRoutes(app: FastifyInstance, deps: PsaRouteDeps): Promise<void> {
  const { psa } = deps;
  const bearer = (access: RouteAccess) => ({ config: { access, credentials: 'bearer' as const } });
  const delegates = (): string[] => [multiaddrOfUrl(deps.listenUrl())];
  const accepted = (reply: FastifyReply, body?: unknown): FastifyReply => reply.code(202).type('application/json').send(body);

  await app.register(
    async (scope) => {
      // Failures of the hooks (the Host guard, credentials, permissions) reach this handler too: the route's.
      scope.setErrorHandler((error, request, reply) => {
        const mapped = mapPsaError(error);
        if (mapped.fault) deps.logger.error('request failed', { method: request.method, route: request.routeOptions.url, error });
        if (reply.sent) return;
        if (mapped.status === 401) reply.header('WWW-Authenticate', 'Bearer realm="pinfold"');
        void reply.code(mapped.status).type('application/json').send(mapped.body);
      });
      scope.setNotFoundHandler((request, reply) => {
        try {
          checkHost(request.headers.host, deps.host);
        } catch (error) {
          const mapped = mapPsaError(error);
          return reply.code(mapped.status).type('application/json').send(mapped.body);
        }
        const path = request.url.split('?')[0] ?? '';
        return reply
          .code(404)
          .type('application/json')
          .send({ error: { reason: 'NOT_FOUND', details: `no route for ${request.method} ${path}` } });
      });

      scope.get('/pins', bearer('account'), async (request) => {
        const query = requestInput(PsaListQuerySchema, request.query);
        return psaPinResults(await listPsaPins(psa, requireAuth(request.auth).account.id, query), delegates());
      });

      scope.post('/pins', bearer('pin'), async (request, reply) => {
        const pin = requestInput(PsaPinBody, await readJsonObject(request.raw, MAX_PIN_BODY));
        return accepted(reply, psaPinStatus(await addPsaPin(psa, requireAuth(request.auth).account.id, pin), delegates()));
      });

      scope.get('/pins/:requestid', bearer('account'), async (request) => {
        const { requestid } = requestInput(PsaRequestParams, request.params);
        return psaPinStatus(await psaPinOf(psa, requireAuth(request.auth).account.id, requestid), delegates());
      });

      // Replace is an add and a remove: it needs both permissions.
      scope.post('/pins/:requestid', bearer('pin'), async (request, reply) => {
        const auth = requireAuth(request.auth);
        requireCapability(auth.permissions, 'unpin');
        const { requestid } = requestInput(PsaRequestParams, request.params);
        const pin = requestInput(PsaPinBody, await readJsonObject(request.raw, MAX_PIN_BODY));
        return accepted(reply, psaPinStatus(await replacePsaPin(psa, auth.account.id, requestid, pin), delegates()));
      });

      scope.delete('/pins/:requestid', bearer('unpin'), async (request, reply) => {
        const { requestid } = requestInput(PsaRequestParams, request.params);
        await removePsaPin(psa, requireAuth(request.auth).account.id, requestid);
        return reply.code(202).send();
      });
    },
    { prefix: '/psa' },
  );
}
