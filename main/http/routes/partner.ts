import type { FastifyInstance } from 'fastify';
import { createAccessKey, deleteAccessKeyByName, listAccessKeys } from '../../accounts/access-keys.js';
import { createPartnerUser } from '../../accounts/accounts.js';
import type { AccountsContext } from '../../accounts/context.js';
import { listPartnerUsers, requirePartner, requireUserOf, updateUserPlan } from '../../accounts/partners.js';
import { withPsaToken } from '../../accounts/psa-token.js';
import { currentUsage, partnerUserUsage } from '../../accounts/usage.js';
import { list, ok } from '../envelope.js';
import { PartnerKeyBody, PartnerKeyNameBody, PartnerPlanBody, PartnerUserCreateBody, PartnerUserQuery } from '../input/partner-input.js';
import { PageQuery } from '../input/pin-input.js';
import { requestInput } from '../input/request-input.js';
import { readJsonObject } from '../json-body.js';
import type { AuthContext } from '../auth.js';
import { requireAuth } from '../route-access.js';

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
    const { email, name, uuid } = requestInput(PartnerUserCreateBody, await readJsonObject(request.raw));
    await createPartnerUser(ctx, partner, { uuid, name, email });
    return ok();
  });

  // Extension (issue 12): the users this partner created, newest first, paged like the spec's lists.
  app.get('/api/v0/partner/users', account, async (request) => {
    const partner = partnerOf(request.auth);
    const { items, total } = await listPartnerUsers(ctx, partner, requestInput(PageQuery, request.query));
    return list(items, total);
  });

  app.get('/api/v0/partner/user/stats', account, async (request) => {
    const partner = partnerOf(request.auth);
    const user = await requireUserOf(ctx.store, partner, requestInput(PartnerUserQuery, request.query).uuid);
    return ok(partnerUserUsage(ctx, user, await currentUsage(ctx, ctx.store, user.id)));
  });

  app.post('/api/v0/partner/user/update-plan', account, async (request) => {
    const partner = partnerOf(request.auth);
    const { uuid, plan_id } = requestInput(PartnerPlanBody, await readJsonObject(request.raw));
    await updateUserPlan(ctx, partner.id, uuid, plan_id);
    return ok();
  });

  app.post('/api/v0/partner/user/key', account, async (request) => {
    const partner = partnerOf(request.auth);
    const { uuid, name, permissions } = requestInput(PartnerKeyBody, await readJsonObject(request.raw));
    const user = await requireUserOf(ctx.store, partner, uuid);
    return ok(withPsaToken(await createAccessKey(ctx, user.id, name, permissions)));
  });

  app.get('/api/v0/partner/user/keys', account, async (request) => {
    const partner = partnerOf(request.auth);
    const user = await requireUserOf(ctx.store, partner, requestInput(PartnerUserQuery, request.query).uuid);
    return ok(await listAccessKeys(ctx, user.id));
  });

  app.delete('/api/v0/partner/user/key', account, async (request) => {
    const partner = partnerOf(request.auth);
    const { uuid, name } = requestInput(PartnerKeyNameBody, await readJsonObject(request.raw));
    const user = await requireUserOf(ctx.store, partner, uuid);
    await deleteAccessKeyByName(ctx, user.id, name);
    return ok();
  });
}
