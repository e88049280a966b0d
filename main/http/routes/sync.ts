import { ConflictError } from '../../base/errors.js';
import { parseRestoreTarget, restorePath } from '../sync-restore-params.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadInputError, ForbiddenError } from '../../base/errors.js';
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

/** `wait` of sync/add: absent or `true` (today's behaviour: answer once the first scan is pinned), or `false`. */
function parseWait(value: unknown): boolean {
  if (value === undefined || value === '' || value === 'true') return true;
  if (value === 'false') return false;
  throw new BadInputError('wait must be true or false');
}

export function syncRoutes(app: FastifyInstance, sync: SyncService): void {
  const config = { access: 'account' as const };

  app.post('/api/v0/sync/add', { config }, async (request) => {
    const accountId = ownerAccount(request);
    const wait = parseWait((request.query as Query).wait);
    const body = await readJsonObject(request.raw);
    return ok(await sync.add(accountId, { path: body.path, ipns: body.ipns, ignore: body.ignore, keep: body.keep, ipns_name: body.ipns_name }, { wait }));
  });

  // Contract section 11 (two machines, one name): the folder's version published now; `force=true` over a newer
  // record of its name seen elsewhere (the conflict the folder shows).
  app.post('/api/v0/sync/publish', { config }, async (request) => {
    const query = request.query as Query;
    return ok(await sync.publish(ownerAccount(request), query.id, query.force));
  });

  // Contract section 11 (follow): another machine's IPNS name mirrored into a folder, read-only; the folder's row
  // answers at once, its first copy running in the background.
  app.post('/api/v0/sync/follow', { config }, async (request) => {
    const accountId = ownerAccount(request);
    const body = await readJsonObject(request.raw);
    return ok(await sync.follow(accountId, { name: body.name, path: body.path, from: body.from }));
  });

  // A followed folder's local changes replaced by the version it holds (moved to the trash first).
  app.post('/api/v0/sync/discard', { config }, async (request) => ok(await sync.discard(ownerAccount(request), (request.query as Query).id)));

  // Extensions for the window (issue 12): a folder's page, a rescan, a retry, and its ignore patterns.
  app.get('/api/v0/sync/detail', { config }, async (request) => ok(await sync.detail(ownerAccount(request), (request.query as Query).id)));

  app.post('/api/v0/sync/rescan', { config }, async (request) => {
    await sync.rescan(ownerAccount(request), (request.query as Query).id);
    return ok();
  });

  app.post('/api/v0/sync/retry', { config }, async (request) => {
    await sync.retry(ownerAccount(request), (request.query as Query).id);
    return ok();
  });

  app.post('/api/v0/sync/ignore', { config }, async (request) => {
    const accountId = ownerAccount(request);
    const id = (request.query as Query).id;
    const body = await readJsonObject(request.raw);
    await sync.setIgnore(accountId, id, body.ignore);
    return ok();
  });

  // History (issue "every version of a synced folder"): the kept versions, a diff between two, the retention policy.
  app.get('/api/v0/sync/versions', { config }, async (request) => {
    const query = request.query as Query;
    const { versions, total } = await sync.versions(ownerAccount(request), query.id, query.limit, query.start);
    return list(versions, total);
  });

  app.get('/api/v0/sync/diff', { config }, async (request) => {
    const query = request.query as Query;
    return ok(await sync.diff(ownerAccount(request), query.id, query.from, query.to));
  });

  // Extension for the window's tree view of a version: one directory's entries and whether each is a file or a folder.
  app.get('/api/v0/sync/tree', { config }, async (request) => {
    const query = request.query as Query;
    return ok(await sync.tree(ownerAccount(request), query.id, query.root, restorePath(query.path)));
  });

  // Extension (issue "every version of a synced folder"): a file or folder of a version back on disk.
  app.post('/api/v0/sync/restore', { config }, async (request) => {
    const query = request.query as Query;
    return ok(await sync.restore(ownerAccount(request), query.id, query.root, parseRestoreTarget(query)));
  });

  app.post('/api/v0/sync/retention', { config }, async (request) => {
    const accountId = ownerAccount(request);
    const id = (request.query as Query).id;
    const body = await readJsonObject(request.raw);
    return ok({ keep: await sync.setRetention(accountId, id, body.keep) });
  });

  app.get('/api/v0/sync', { config }, async (request) => {
    const rows = await sync.list(ownerAccount(request));
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

/**
 * Sync folders where the service cannot run them (the scale-out mode: `--db`): every sync call is refused
 * with 409 and the reason, so a client learns why rather than meeting a 404 as for a route that never was.
 */
export function syncUnavailableRoutes(app: FastifyInstance, reason: string): void {
  const refuse = async (): Promise<never> => {
    throw new ConflictError(reason);
  };
  app.all('/api/v0/sync', { config: { access: 'account' } }, refuse);
  app.all('/api/v0/sync/*', { config: { access: 'account' } }, refuse);
}
