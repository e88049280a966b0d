import type { FastifyInstance } from 'fastify';
import { ForbiddenError } from '../../base/errors.js';
import { encodeCursor, PinAddQuery, PinListQuerySchema, PinPathParams, PinRemoveQuery, PinRenameBody } from '../input/pin-input.js';
import { requestInput } from '../input/request-input.js';
import type { PinsContext } from '../../pins/context.js';
import type { PinListEnvelope } from '../../../shared/api-types.js';
import { pinList } from '../../pins/pin-list.js';
import { addPin, pinRecordOf, removePin, renamePinOf, requirePin } from '../../pins/pins.js';
import { ok } from '../envelope.js';
import { readJsonObject } from '../json-body.js';
import { requireAuth } from '../route-access.js';

export interface PinRouteDeps {
  pins: PinsContext;
  /** Runs one GC cycle now (POST /api/v0/repo/gc); resolves with what it did. */
  collectGarbage(): Promise<{ pinsRemoved: number; blocksDeleted: number }>;
}

export function pinRoutes(app: FastifyInstance, deps: PinRouteDeps): void {
  const { pins } = deps;

  app.post('/api/v0/pin/add', { config: { access: 'pin' } }, async (request) => {
    const { arg, name } = requestInput(PinAddQuery, request.query);
    await addPin(pins, requireAuth(request.auth).account.id, arg, { name, parameter: 'arg' });
    return ok();
  });

  app.post('/api/v0/pin/rm', { config: { access: 'unpin' } }, async (request) => {
    const { arg } = requestInput(PinRemoveQuery, request.query);
    await removePin(pins, requireAuth(request.auth).account.id, arg);
    return ok();
  });

  // The spec's status/limit/start, and the extensions name, cid and the after/before cursors (see pin-list.ts).
  app.get('/api/v0/pin', { config: { access: 'account' } }, async (request) => {
    const query = requestInput(PinListQuerySchema, request.query);
    const page = await pinList(pins, requireAuth(request.auth).account.id, query);
    const answer: PinListEnvelope = {
      code: 200,
      data: page.data,
      total: page.total,
      ...(page.next ? { next: encodeCursor(page.next) } : {}),
      ...(page.prev ? { prev: encodeCursor(page.prev) } : {}),
    };
    return answer;
  });

  app.get('/api/v0/pin/:cid', { config: { access: 'account' } }, async (request) => {
    const { cid } = requestInput(PinPathParams, request.params);
    const row = await requirePin(pins, requireAuth(request.auth).account.id, cid);
    // While its blocks are fetched from the network, with how far the fetch is (contract section 11).
    return ok(pinRecordOf(pins, row));
  });

  app.post('/api/v0/pin/rename', { config: { access: 'account' } }, async (request) => {
    const auth = requireAuth(request.auth);
    const { cid, name } = requestInput(PinRenameBody, await readJsonObject(request.raw));
    await renamePinOf(pins, auth.account.id, cid, name);
    return ok();
  });

  app.post('/api/v0/repo/gc', { config: { access: 'account' } }, async (request) => {
    if (!requireAuth(request.auth).account.isOwner) throw new ForbiddenError('only the owner may run garbage collection');
    const result = await deps.collectGarbage();
    return ok({ pins_removed: result.pinsRemoved, blocks_deleted: result.blocksDeleted });
  });
}
