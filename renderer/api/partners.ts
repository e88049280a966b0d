import { is } from 'valibot';
import type { AccessKeyListing, NewAccessKey, PartnerUserSummary, PartnerUserUsage, Permission } from '../../shared/api-types.js';
import { PartnerUserSummarySchema } from '../../shared/schemas/partners.js';
import { ApiError } from './api-error.js';
import type { ApiCore, ListPage } from './core.js';
import { isPartnerUserUsage } from './account.js';
import { isAccessKeyListing, isNewAccessKey } from './keys.js';
import { arrayOf } from './shape.js';

export interface PartnerUserCreate {
  uuid: string;
  name: string;
  email: string;
}

/** The partner interface: only for partner accounts (the owner is one); others get 403. */
export interface PartnersApi {
  /**
   * Whether the client's account is a partner account. The stats say nothing about it, so the
   * window asks the partner API itself with the cheapest call it has, and a 403 means "not a partner".
   */
  isPartner(signal?: AbortSignal): Promise<boolean>;
  /** GET /api/v0/partner/users (extension): the users this partner created, newest first. */
  users(query: { limit?: number; start?: number }, signal?: AbortSignal): Promise<ListPage<PartnerUserSummary>>;
  createUser(user: PartnerUserCreate, signal?: AbortSignal): Promise<void>;
  userStats(uuid: string, signal?: AbortSignal): Promise<PartnerUserUsage>;
  /** The fee is charged to the partner at once; too little balance: 402. */
  updatePlan(uuid: string, planId: number, signal?: AbortSignal): Promise<void>;
  createUserKey(uuid: string, key: { name: string; permissions: Permission[] }, signal?: AbortSignal): Promise<NewAccessKey>;
  userKeys(uuid: string, signal?: AbortSignal): Promise<AccessKeyListing[]>;
  deleteUserKey(uuid: string, name: string, signal?: AbortSignal): Promise<void>;
}

export function partnersApi(core: ApiCore): PartnersApi {
  return {
    isPartner: async (signal) => {
      try {
        // Only the status matters here; the rows are the Partners page's to read and check.
        await core.empty({ path: '/api/v0/partner/users', signal, query: { limit: 1 } });
        return true;
      } catch (error) {
        // permission: not a partner. not_found: a service without the users list predates the window: no Partners page.
        if (error instanceof ApiError && (error.error === 'permission' || error.error === 'not_found')) return false;
        throw error;
      }
    },
    users: (query, signal) => core.list({ path: '/api/v0/partner/users', signal, query: { ...query } }, isPartnerUserSummary, 'the partner users'),
    createUser: (user, signal) => core.empty({ method: 'POST', path: '/api/v0/partner/user/create', signal, body: user }),
    userStats: (uuid, signal) => core.data({ path: '/api/v0/partner/user/stats', signal, query: { uuid } }, isPartnerUserUsage, 'user stats'),
    updatePlan: (uuid, planId, signal) => core.empty({ method: 'POST', path: '/api/v0/partner/user/update-plan', signal, body: { uuid, plan_id: planId } }),
    createUserKey: (uuid, key, signal) =>
      core.data({ method: 'POST', path: '/api/v0/partner/user/key', signal, body: { uuid, ...key } }, isNewAccessKey, 'the new key'),
    userKeys: (uuid, signal) => core.data({ path: '/api/v0/partner/user/keys', signal, query: { uuid } }, arrayOf(isAccessKeyListing), 'the key list'),
    deleteUserKey: (uuid, name, signal) => core.empty({ method: 'DELETE', path: '/api/v0/partner/user/key', signal, body: { uuid, name } }),
  };
}

export const isPartnerUserSummary = (value: unknown): value is PartnerUserSummary => is(PartnerUserSummarySchema, value);
