import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ConflictError, ForbiddenError } from '../../base/errors.js';
import type { SyncService } from '../../sync/sync-service.js';
import { list, ok } from '../envelope.js';
import { readJsonObject } from '../json-body.js';
import { SyncDiffQuery, SyncRestoreQuery, SyncTreeQuery, SyncVersionsQuery } from '../input/sync-history-input.js';
import { SyncAddBody, SyncAddQuery, SyncFollowBody, SyncIdQuery, SyncIgnoreBody, SyncPublishQuery, SyncRetentionBody } from '../input/sync-input.js';
import { requestInput } from '../input/request-input.js';
import { requireAuth } from '../route-access.js';

/**
 * Contract section 9. `access: 'account'` lets only admin keys through; sync reads local files, so
 * on top of that only the owner's account may reach it (a partner's users, even with admin keys: 403).
 */
function ownerAccount(request: FastifyRequest): number {
  const auth = requireAuth(request.auth);
  if (!auth.account.isOwner) throw new ForbiddenError('sync folders are for the owner account only');
  return auth.account.id;
}

/** The query's `id`, a sync folder's. */
const queryId = (request: FastifyRequest): string => requestInput(SyncIdQuery, request.query).id;

const config = { access: 'account' as const };

/** Contract section 9: add, list, pause, resume, rm. */
function folderRoutes(app: FastifyInstance, sync: SyncService): void {
  app.post('/api/v0/sync/add', { config }, async (request) => {
    const accountId = ownerAccount(request);
    const { wait } = requestInput(SyncAddQuery, request.query);
    const input = requestInput(SyncAddBody, await readJsonObject(request.raw));
    return ok(await sync.add(accountId, input, { wait }));
  });

  app.get('/api/v0/sync', { config }, async (request) => {
    const rows = await sync.list(ownerAccount(request));
    return list(rows, rows.length);
  });

  app.post('/api/v0/sync/pause', { config }, async (request) => {
    await sync.pause(ownerAccount(request), queryId(request));
    return ok();
  });

  app.post('/api/v0/sync/resume', { config }, async (request) => {
    await sync.resume(ownerAccount(request), queryId(request));
    return ok();
  });

  app.post('/api/v0/sync/rm', { config }, async (request) => {
    await sync.remove(ownerAccount(request), queryId(request));
    return ok();
  });
}

/** Extensions for the window (issue 12): a folder's page, a rescan, a retry, and its ignore patterns. */
function windowRoutes(app: FastifyInstance, sync: SyncService): void {
  app.get('/api/v0/sync/detail', { config }, async (request) => ok(await sync.detail(ownerAccount(request), queryId(request))));

  app.post('/api/v0/sync/rescan', { config }, async (request) => {
    await sync.rescan(ownerAccount(request), queryId(request));
    return ok();
  });

  app.post('/api/v0/sync/retry', { config }, async (request) => {
    await sync.retry(ownerAccount(request), queryId(request));
    return ok();
  });

  app.post('/api/v0/sync/ignore', { config }, async (request) => {
    const accountId = ownerAccount(request);
    const body = await readJsonObject(request.raw);
    const id = queryId(request);
    await sync.setIgnore(accountId, id, requestInput(SyncIgnoreBody, body).ignore);
    return ok();
  });
}

/** History (issue "every version of a synced folder"): the kept versions, a diff, a tree, a restore, the retention policy. */
function historyRoutes(app: FastifyInstance, sync: SyncService): void {
  app.get('/api/v0/sync/versions', { config }, async (request) => {
    const accountId = ownerAccount(request);
    const { id, limit, start } = requestInput(SyncVersionsQuery, request.query);
    const { versions, total } = await sync.versions(accountId, id, { limit, start });
    return list(versions, total);
  });

  app.get('/api/v0/sync/diff', { config }, async (request) => {
    const accountId = ownerAccount(request);
    const { id, from, to } = requestInput(SyncDiffQuery, request.query);
    return ok(await sync.diff(accountId, id, from, to));
  });

  // Extension for the window's tree view of a version: one directory's entries and whether each is a file or a folder.
  app.get('/api/v0/sync/tree', { config }, async (request) => {
    const accountId = ownerAccount(request);
    const { path, id, root } = requestInput(SyncTreeQuery, request.query);
    return ok(await sync.tree(accountId, id, root, path));
  });

  // Extension (issue "every version of a synced folder"): a file or folder of a version back on disk.
  app.post('/api/v0/sync/restore', { config }, async (request) => {
    const accountId = ownerAccount(request);
    const { path, overwrite, to, id, root } = requestInput(SyncRestoreQuery, request.query);
    return ok(await sync.restore(accountId, id, root, { path, overwrite, ...(to === undefined ? {} : { to }) }));
  });

  app.post('/api/v0/sync/retention', { config }, async (request) => {
    const accountId = ownerAccount(request);
    const body = await readJsonObject(request.raw);
    const id = queryId(request);
    return ok({ keep: await sync.setRetention(accountId, id, requestInput(SyncRetentionBody, body).keep) });
  });
}

/** Contract section 11: a folder's name published now, a name followed, a followed folder's local changes discarded. */
function nameRoutes(app: FastifyInstance, sync: SyncService): void {
  // Contract section 11 (two machines, one name): the folder's version published now; `force=true` over a newer
  // record of its name seen elsewhere (the conflict the folder shows).
  app.post('/api/v0/sync/publish', { config }, async (request) => {
    const accountId = ownerAccount(request);
    const { id, force } = requestInput(SyncPublishQuery, request.query);
    return ok(await sync.publish(accountId, id, force));
  });

  // Contract section 11 (follow): another machine's IPNS name mirrored into a folder, read-only; the folder's row
  // answers at once, its first copy running in the background.
  app.post('/api/v0/sync/follow', { config }, async (request) => {
    const accountId = ownerAccount(request);
    const input = requestInput(SyncFollowBody, await readJsonObject(request.raw));
    return ok(await sync.follow(accountId, input));
  });

  // A followed folder's local changes replaced by the version it holds (moved to the trash first).
  app.post('/api/v0/sync/discard', { config }, async (request) => ok(await sync.discard(ownerAccount(request), queryId(request))));
}

/**
 * Each route reads its query and body through their schemas (input/sync-input.ts, input/sync-history-input.ts)
 * into typed values before the service sees them, in the order the answers always took: the body read first,
 * then the id, then the rest.
 */
export function syncRoutes(app: FastifyInstance, sync: SyncService): void {
  folderRoutes(app, sync);
  windowRoutes(app, sync);
  historyRoutes(app, sync);
  nameRoutes(app, sync);
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
