/**
 * The partner interface in the request cache: the users this partner created (a page at a time), one
 * user's stats and keys, the plans to move them between, the actions on them, and `event: partner` (a
 * notice naming the user that changed) loading again what is shown of the partner's users, paced.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { AccessKeyListing, NewAccessKey, PartnerUserSummary, PartnerUserUsage, Plan, ServiceEvents } from '../../shared/api-types.js';
import type { ListPage } from '../api/core.js';
import type { PartnerUserCreate } from '../api/partners.js';
import type { ListPosition } from '../lib/list-params.js';
import { useApiMutation, type ApiMutation } from './api-mutation.js';
import { useApiQuery, type ApiQuery } from './api-query.js';
import type { KeyRequest } from './keys.js';
import type { LiveReloads } from './live-reloads.js';
import { queryKeys } from './query-keys.js';

export function usePartnerUsers(position: ListPosition): ApiQuery<ListPage<PartnerUserSummary>> {
  return useApiQuery({ queryKey: queryKeys.partners.users(position), load: (api, signal) => api.partners.users(position, signal) });
}

export function usePlans(): ApiQuery<Plan[]> {
  return useApiQuery({ queryKey: queryKeys.plans.list(), load: (api, signal) => api.account.plans(signal) });
}

export function usePartnerUserStats(uuid: string): ApiQuery<PartnerUserUsage> {
  return useApiQuery({ queryKey: queryKeys.partners.userStats(uuid), load: (api, signal) => api.partners.userStats(uuid, signal) });
}

export function usePartnerUserKeys(uuid: string): ApiQuery<AccessKeyListing[]> {
  return useApiQuery({ queryKey: queryKeys.partners.userKeys(uuid), load: (api, signal) => api.partners.userKeys(uuid, signal) });
}

function reload(client: QueryClient, queryKey: readonly unknown[]): void {
  void client.invalidateQueries({ queryKey });
}

/** A new user, on the Free plan with no keys: the list moves. */
export function useCreatePartnerUser(): ApiMutation<PartnerUserCreate, void> {
  return useApiMutation({
    perform: (api, user: PartnerUserCreate) => api.partners.createUser(user),
    onSuccess: (client) => reload(client, queryKeys.partners.userLists()),
  });
}

/** A user moved to another plan (its fee charged to this partner at once): its stats and its row in the list change. */
export function useChangeUserPlan(uuid: string): ApiMutation<Plan, void> {
  return useApiMutation({
    perform: (api, plan: Plan) => api.partners.updatePlan(uuid, plan.id),
    onSuccess: (client) => {
      reload(client, queryKeys.partners.user(uuid));
      reload(client, queryKeys.partners.userLists());
    },
  });
}

/** A key for the user: the answer holds its secret, the only time the service shows it. */
export function useCreateUserKey(uuid: string): ApiMutation<KeyRequest, NewAccessKey> {
  return useApiMutation({
    perform: (api, { name, permissions }: KeyRequest) => api.partners.createUserKey(uuid, { name, permissions }),
    onSuccess: (client) => reload(client, queryKeys.partners.userKeys(uuid)),
  });
}

export function useDeleteUserKey(uuid: string): ApiMutation<Pick<AccessKeyListing, 'name'>, void> {
  return useApiMutation({
    perform: (api, { name }: Pick<AccessKeyListing, 'name'>) => api.partners.deleteUserKey(uuid, name),
    onSuccess: (client) => reload(client, queryKeys.partners.userKeys(uuid)),
  });
}

/**
 * `event: partner`: one user changed (created, its plan, its keys, its usage). What is shown of the
 * partner's users (the page of the list, and the user open, whichever it is) loads again: at once, then
 * at most once per pause however busy the users are. One reload of everything shown under `partners`,
 * not one per query, so that the list and the user open load together.
 */
export function partnerEventToCache(_client: QueryClient, _change: ServiceEvents['partner'], reloads: LiveReloads): void {
  reloads.soon(queryKeys.partners.all, 'under');
}
