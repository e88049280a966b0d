import type { FastifyInstance } from 'fastify';
import { ForbiddenError } from '../../base/errors.js';
import { parseCidParam } from '../cid-param.js';
import { encodeCursor, parsePinListQuery, parsePinName } from '../pin-params.js';
import type { PinsContext } from '../../pins/context.js';
import type { PinListEnvelope } from '../../../shared/api-types.js';
import { pinList } from '../../pins/pin-list.js';
import { addPin, pinRecordOf, removePin, renamePinOf, requirePin } from '../../pins/pins.js';
import { ok } from '../envelope.js';
import { readJsonObject, stringField } from '../json-body.js';
import { requireAuth } from '../route-access.js';

export interface PinRouteDeps {
  pins: PinsContext;
  /** Runs one GC cycle now (POST /api/v0/repo/gc); resolves with what it did. */
  collectGarbage(): Promise<{ pinsRemoved: number; blocksDeleted: number }>;
}

type Query = Record<string, unknown>;

export function pinRoutes(app: FastifyInstance, deps: PinRouteDeps): void {
  const { pins } = deps;

  app.post('/api/v0/pin/add', { config: { access: 'pin' } }, async (request) => {
    const query = request.query as Query;
    const cid = parseCidParam(query.arg, 'arg');
    await addPin(pins, requireAuth(request.auth).account.id, cid, { name: parsePinName(query.name), parameter: 'arg' });
    return ok();
  });

  app.post('/api/v0/pin/rm', { config: { access: 'unpin' } }, async (request) => {
    const cid = parseCidParam((request.query as Query).arg, 'arg');
    await removePin(pins, requireAuth(request.auth).account.id, cid);
    return ok();
  });

  // The spec's status/limit/start, and the extensions name, cid and the after/before cursors (see pin-list.ts).
  app.get('/api/v0/pin', { config: { access: 'account' } }, async (request) => {
    const query = parsePinListQuery(request.query as Query);
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
    const row = await requirePin(pins, requireAuth(request.auth).account.id, parseCidParam((request.params as { cid: string }).cid, 'cid'));
    // While its blocks are fetched from the network, with how far the fetch is (contract section 11).
    return ok(pinRecordOf(pins, row));
  });

  app.post('/api/v0/pin/rename', { config: { access: 'account' } }, async (request) => {
    const auth = requireAuth(request.auth);
    const body = await readJsonObject(request.raw);
    const cid = stringField(body, 'cid', { max: 512 });
    const name = parsePinName(stringField(body, 'name', { required: false, max: 1024 }));
    await renamePinOf(pins, auth.account.id, parseCidParam(cid, 'cid'), name);
    return ok();
  });

  app.post('/api/v0/repo/gc', { config: { access: 'account' } }, async (request) => {
    if (!requireAuth(request.auth).account.isOwner) throw new ForbiddenError('only the owner may run garbage collection');
    const result = await deps.collectGarbage();
    return ok({ pins_removed: result.pinsRemoved, blocks_deleted: result.blocksDeleted });
  });
}
