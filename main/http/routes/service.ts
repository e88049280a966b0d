import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ServiceFacts } from '../../../shared/api-types.js';
import type { ServiceConfig } from '../../base/config.js';
import { ForbiddenError } from '../../base/errors.js';
import { ok } from '../envelope.js';
import { requireAuth } from '../route-access.js';

export interface ServiceRouteDeps {
  config: ServiceConfig;
  version: string;
  /** Unix seconds the service started. */
  startedAt: number;
  /** The URL the server listens at, as `pinfold serve` prints it. */
  listenUrl(): string;
  /** Whether this instance runs the periodic GC (always with SQLite; the one leader among instances with --db). */
  gcLeader(): boolean;
}

/**
 * `GET /api/v0/service` (issue 12, extension): what the Settings page shows of the running service. The
 * owner's admin keys only: the data folder's path is the machine owner's business, not a partner user's.
 */
export function serviceRoutes(app: FastifyInstance, deps: ServiceRouteDeps): void {
  app.get('/api/v0/service', { config: { access: 'account' } }, async (request) => {
    if (!requireAuth(request.auth).account.isOwner) throw new ForbiddenError('only the owner may read the service facts');
    const { config } = deps;
    const facts: ServiceFacts = {
      version: deps.version,
      data_dir: resolve(config.dataDir),
      url: deps.listenUrl(),
      gc_interval_seconds: config.gcIntervalSeconds,
      gc_grace_seconds: config.gcGraceSeconds,
      cid_profile: config.cidProfile,
      public_gateway: config.publicGateway,
      started_at: deps.startedAt,
      gc_leader: deps.gcLeader(),
    };
    return ok(facts);
  });
}
