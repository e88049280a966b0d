import type { FastifyInstance } from 'fastify';
import type { EventHub } from '../events/event-hub.js';
import { requireAuth } from '../route-access.js';

/**
 * `GET /api/v0/events` (issue 12, extension): server-sent events for the window. Authenticated like the
 * account API (admin), `ts` checked once, at connect. The answer never ends on its own: the stream
 * stays open until the client leaves, its key is deleted, its session expires or the service stops.
 */
export function eventRoutes(app: FastifyInstance, hub: EventHub): void {
  app.get('/api/v0/events', { config: { access: 'account' } }, (request, reply) => {
    const auth = requireAuth(request.auth);
    if (auth.accessKey === null) throw new Error('events reached without an access key; its access setting is wrong');
    hub.checkRoom(auth.accessKey);
    reply.hijack();
    const response = reply.raw;
    // Headers the hooks set (CORS for an allowed origin) go out with the stream's own.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) response.setHeader(name, value);
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    hub.open(response, { accountId: auth.account.id, accessKey: auth.accessKey, isOwner: auth.account.isOwner, expiresAt: auth.expiresAt });
  });
}
