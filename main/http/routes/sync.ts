import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenError } from '../../base/errors.js';
import type { SyncService } from '../../sync/sync-service.js';
import { list, ok } from '../envelope.js';
import { readJsonObject } from '../json-body.js';
import { requireAuth } from '../route-access.js';

type Query = Record<string, unknown>;

/**
 * Contract section 9. `access: 'account'` lets only admin keys through; sync reads local files, so
 * on top of that only the owner's account may reach it (a partner's users, even with admin keys: 403).
 */
function ownerAccount(request: FastifyRequest): number {
  const auth = requireAuth(request.auth);
  if (!auth.account.isOwner) throw new ForbiddenError('sync folders are for the owner account only');
  return auth.account.id;
}

export function syncRoutes(app: FastifyInstance, sync: SyncService): void {
  const config = { access: 'account' as const };

  app.post('/api/v0/sync/add', { config }, async (request) => {
    const accountId = ownerAccount(request);
    const body = await readJsonObject(request.raw);
    return ok(await sync.add(accountId, { path: body.path, ipns: body.ipns, ignore: body.ignore }));
  });

  app.get('/api/v0/sync', { config }, async (request) => {
    const rows = sync.list(ownerAccount(request));
    return list(rows, rows.length);
  });

  app.post('/api/v0/sync/pause', { config }, async (request) => {
    await sync.pause(ownerAccount(request), (request.query as Query).id);
    return ok();
  });

  app.post('/api/v0/sync/resume', { config }, async (request) => {
    await sync.resume(ownerAccount(request), (request.query as Query).id);
    return ok();
  });

  app.post('/api/v0/sync/rm', { config }, async (request) => {
    await sync.remove(ownerAccount(request), (request.query as Query).id);
    return ok();
  });
}
