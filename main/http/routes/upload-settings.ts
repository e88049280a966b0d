import type { FastifyInstance } from 'fastify';
import type { UploadSettings } from '../../../shared/api-types.js';
import { ok } from '../envelope.js';
import { requireAuth } from '../route-access.js';
import type { ServiceSettings } from '../settings-catalog.js';

/**
 * `GET /api/v0/upload/settings` (issue 12, extension): what a client needs to make content the way this
 * service would and to show it. Any key that may upload reads it, unlike `GET /api/v0/service` (owner only):
 * the Files page of every account builds a folder's CAR with the service's CID profile, links to the
 * gateway directly when it is public, and keeps its recent uploads per account.
 */
export function uploadSettingsRoutes(app: FastifyInstance, settings: Pick<ServiceSettings, 'current'>): void {
  app.get('/api/v0/upload/settings', { config: { access: 'write' } }, async (request) => {
    const { cid_profile, public_gateway } = settings.current();
    const answer: UploadSettings = { account_uuid: requireAuth(request.auth).account.uuid, cid_profile, public_gateway };
    return ok(answer);
  });
}
