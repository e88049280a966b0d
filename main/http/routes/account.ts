import type { FastifyInstance, FastifyReply } from 'fastify';
import { createAccessKey, deleteAccessKeyByName, listAccessKeyViews } from '../../accounts/access-keys.js';
import type { AccountsContext } from '../../accounts/context.js';
import { withPsaToken } from '../../accounts/psa-token.js';
import { dailyUsage } from '../../accounts/usage-daily.js';
import { ok } from '../envelope.js';
import { AccessKeyBody, AccessKeyNameBody, DailyUsageQuery } from '../input/account-input.js';
import { requestInput } from '../input/request-input.js';
import { readJsonObject } from '../json-body.js';
import { requireAuth } from '../route-access.js';
import { statsAnswer } from '../stats-answer.js';

/**
 * Account stats and access keys (admin only, contract section 2). Pin and IPNS lists live with their domains.
 * `ownerKey`: the owner key's access key, marked in the key list (null on an instance that holds none).
 */
export function accountRoutes(app: FastifyInstance, ctx: AccountsContext, ownerKey: string | null): void {
  const account = { config: { access: 'account' as const } };

  // Not an async handler: the answer is at hand on almost every call, and an await would cost a turn.
  app.get('/api/v0/stats', account, (request, reply) => {
    const answer = statsAnswer(ctx, requireAuth(request.auth).account);
    const send = (json: string): FastifyReply => reply.type('application/json; charset=utf-8').send(json);
    return typeof answer === 'string' ? send(answer) : answer.then(send);
  });

  // Extension (issue 12): usage per UTC day, the last N days ending today, for the Overview's charts.
  app.get('/api/v0/stats/daily', account, async (request) => {
    const { days } = requestInput(DailyUsageQuery, request.query);
    return ok(await dailyUsage(ctx, requireAuth(request.auth).account.id, days));
  });

  app.post('/api/v0/key', account, async (request) => {
    const auth = requireAuth(request.auth);
    const { name, permissions } = requestInput(AccessKeyBody, await readJsonObject(request.raw));
    return ok(withPsaToken(await createAccessKey(ctx, auth.account.id, name, permissions)));
  });

  app.get('/api/v0/keys', account, async (request) => ok(await listAccessKeyViews(ctx, requireAuth(request.auth).account.id, ownerKey)));

  app.delete('/api/v0/key', account, async (request) => {
    const auth = requireAuth(request.auth);
    const { name } = requestInput(AccessKeyNameBody, await readJsonObject(request.raw));
    await deleteAccessKeyByName(ctx, auth.account.id, name);
    return ok();
  });
}
