import { is } from 'valibot';
import type { AccessKeyListing, NewAccessKey, PartnerUserSummary, PartnerUserUsage, Permission } from '../../shared/api-types.js';
import { PartnerUserSummarySchema } from '../../shared/schemas/partners.js';
import { ApiError } from './api-error.js';
import type { ApiCore, Credentials, ListPage } from './core.js';
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
   * Whether these credentials belong to a partner account. The stats say nothing about it, so the
   * window asks the partner API itself with the cheapest call it has, and a 403 means "not a partner".
   */
  isPartner(credentials: Credentials, signal?: AbortSignal): Promise<boolean>;
  /** GET /api/v0/partner/users (extension): the users this partner created, newest first. */
  users(credentials: Credentials, query: { limit?: number; start?: number }, signal?: AbortSignal): Promise<ListPage<PartnerUserSummary>>;
  createUser(credentials: Credentials, user: PartnerUserCreate, signal?: AbortSignal): Promise<void>;
  userStats(credentials: Credentials, uuid: string, signal?: AbortSignal): Promise<PartnerUserUsage>;
  /** The fee is charged to the partner at once; too little balance: 402. */
  updatePlan(credentials: Credentials, uuid: string, planId: number, signal?: AbortSignal): Promise<void>;
  createUserKey(credentials: Credentials, uuid: string, key: { name: string; permissions: Permission[] }, signal?: AbortSignal): Promise<NewAccessKey>;
  userKeys(credentials: Credentials, uuid: string, signal?: AbortSignal): Promise<AccessKeyListing[]>;
  deleteUserKey(credentials: Credentials, uuid: string, name: string, signal?: AbortSignal): Promise<void>;
}

export function partnersApi(core: ApiCore): PartnersApi {
  return {
    isPartner: async (credentials, signal) => {
      try {
        // Only the status matters here; the rows are the Partners page's to read and check.
        await core.empty({ path: '/api/v0/partner/users', credentials, signal, query: { limit: 1 } });
        return true;
      } catch (error) {
        // permission: not a partner. not_found: a service without the users list predates the window: no Partners page.
        if (error instanceof ApiError && (error.error === 'permission' || error.error === 'not_found')) return false;
        throw error;
      }
    },
    users: (credentials, query, signal) =>
      core.list({ path: '/api/v0/partner/users', credentials, signal, query: { ...query } }, isPartnerUserSummary, 'the partner users'),
    createUser: (credentials, user, signal) => core.empty({ method: 'POST', path: '/api/v0/partner/user/create', credentials, signal, body: user }),
    userStats: (credentials, uuid, signal) =>
      core.data({ path: '/api/v0/partner/user/stats', credentials, signal, query: { uuid } }, isPartnerUserUsage, 'user stats'),
    updatePlan: (credentials, uuid, planId, signal) =>
      core.empty({ method: 'POST', path: '/api/v0/partner/user/update-plan', credentials, signal, body: { uuid, plan_id: planId } }),
    createUserKey: (credentials, uuid, key, signal) =>
      core.data({ method: 'POST', path: '/api/v0/partner/user/key', credentials, signal, body: { uuid, ...key } }, isNewAccessKey, 'the new key'),
    userKeys: (credentials, uuid, signal) =>
      core.data({ path: '/api/v0/partner/user/keys', credentials, signal, query: { uuid } }, arrayOf(isAccessKeyListing), 'the key list'),
    deleteUserKey: (credentials, uuid, name, signal) =>
      core.empty({ method: 'DELETE', path: '/api/v0/partner/user/key', credentials, signal, body: { uuid, name } }),
  };
}

export const isPartnerUserSummary = (value: unknown): value is PartnerUserSummary => is(PartnerUserSummarySchema, value);
