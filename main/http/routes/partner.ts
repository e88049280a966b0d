import type { FastifyInstance } from 'fastify';
import { createAccessKey, deleteAccessKeyByName, listAccessKeys, parseKeyName } from '../../accounts/access-keys.js';
import { createPartnerUser } from '../../accounts/accounts.js';
import type { AccountsContext } from '../../accounts/context.js';
import { listPartnerUsers, requirePartner, requireUserOf, updateUserPlan } from '../../accounts/partners.js';
import { parsePermissions } from '../../accounts/permissions.js';
import { withPsaToken } from '../../accounts/psa-token.js';
import { currentUsage, partnerUserUsage } from '../../accounts/usage.js';
import { BadInputError } from '../../base/errors.js';
import { parsePage } from '../pin-params.js';
import { list, ok } from '../envelope.js';
import { integerField, readJsonObject, stringField } from '../json-body.js';
import type { AuthContext } from '../auth.js';
import { requireAuth } from '../route-access.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function queryUuid(query: unknown): string {
  const uuid = (query as Record<string, unknown>).uuid;
  if (typeof uuid !== 'string' || uuid === '') throw new BadInputError('uuid is required');
  return uuid;
}

function partnerOf(auth: AuthContext | null): AuthContext['account'] {
  const { account } = requireAuth(auth);
  requirePartner(account);
  return account;
}

/** The partner interface: a partner acts only on the users it created, by their uuid. */
export function partnerRoutes(app: FastifyInstance, ctx: AccountsContext): void {
  const account = { config: { access: 'account' as const } };

  app.post('/api/v0/partner/user/create', account, async (request) => {
    const partner = partnerOf(request.auth);
    const body = await readJsonObject(request.raw);
    const email = stringField(body, 'email', { max: 320 });
    if (!EMAIL.test(email)) throw new BadInputError('email is not an e-mail address');
    const name = stringField(body, 'name', { max: 256 });
    const uuid = stringField(body, 'uuid', { max: 128 });
    await createPartnerUser(ctx, partner, { uuid, name, email });
    return ok();
  });

  // Extension (issue 12): the users this partner created, newest first, paged like the spec's lists.
  app.get('/api/v0/partner/users', account, async (request) => {
    const partner = partnerOf(request.auth);
    const { items, total } = await listPartnerUsers(ctx, partner, parsePage(request.query as Record<string, unknown>));
    return list(items, total);
  });

  app.get('/api/v0/partner/user/stats', account, async (request) => {
    const partner = partnerOf(request.auth);
    const user = await requireUserOf(ctx.store, partner, queryUuid(request.query));
    return ok(partnerUserUsage(ctx, user, await currentUsage(ctx, ctx.store, user.id)));
  });

  app.post('/api/v0/partner/user/update-plan', account, async (request) => {
    const partner = partnerOf(request.auth);
    const body = await readJsonObject(request.raw);
    const uuid = stringField(body, 'uuid', { max: 128 });
    await updateUserPlan(ctx, partner.id, uuid, integerField(body, 'plan_id'));
    return ok();
  });

  app.post('/api/v0/partner/user/key', account, async (request) => {
    const partner = partnerOf(request.auth);
    const body = await readJsonObject(request.raw);
    const user = await requireUserOf(ctx.store, partner, stringField(body, 'uuid', { max: 128 }));
    return ok(withPsaToken(await createAccessKey(ctx, user.id, parseKeyName(body.name), parsePermissions(body.permissions))));
  });

  app.get('/api/v0/partner/user/keys', account, async (request) => {
    const partner = partnerOf(request.auth);
    return ok(await listAccessKeys(ctx, (await requireUserOf(ctx.store, partner, queryUuid(request.query))).id));
  });

  app.delete('/api/v0/partner/user/key', account, async (request) => {
    const partner = partnerOf(request.auth);
    const body = await readJsonObject(request.raw);
    const user = await requireUserOf(ctx.store, partner, stringField(body, 'uuid', { max: 128 }));
    await deleteAccessKeyByName(ctx, user.id, parseKeyName(body.name));
    return ok();
  });
}
