import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ServiceFacts } from '../../../shared/api-types.js';
import type { ServiceConfig } from '../../base/config.js';
import { ForbiddenError } from '../../base/errors.js';
import type { ServiceSettings } from '../settings-catalog.js';
import { ok } from '../envelope.js';
import { requireAuth } from '../route-access.js';

export interface ServiceRouteDeps {
  config: ServiceConfig;
  /** The settings in use: GC's, the CID profile and the public gateway are shown as this run uses them now. */
  settings: ServiceSettings;
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
    const settings = deps.settings.current();
    const facts: ServiceFacts = {
      version: deps.version,
      data_dir: resolve(deps.config.dataDir),
      url: deps.listenUrl(),
      gc_interval_seconds: settings.gc_interval_seconds,
      gc_grace_seconds: settings.gc_grace_seconds,
      cid_profile: settings.cid_profile,
      public_gateway: settings.public_gateway,
      started_at: deps.startedAt,
      gc_leader: deps.gcLeader(),
    };
    return ok(facts);
  });
}
