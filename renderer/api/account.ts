import { is } from 'valibot';
import type { AccountUsage, DailyUsage, PartnerUserUsage, Plan } from '../../shared/api-types.js';
import { AccountUsageSchema, DailyUsageSchema, PartnerUserUsageSchema, PlanSchema } from '../../shared/schemas/account.js';
import type { ApiCore } from './core.js';
import { arrayOf } from './shape.js';

export interface AccountApi {
  /** GET /api/v0/stats (admin keys): usage against the plan's limits. */
  stats(signal?: AbortSignal): Promise<AccountUsage>;
  /** GET /api/v0/stats/daily?days=N: exactly N UTC days, oldest first, ending today. */
  daily(days: number, signal?: AbortSignal): Promise<DailyUsage[]>;
  /** GET /api/v0/plans: needs no key. */
  plans(signal?: AbortSignal): Promise<Plan[]>;
}

export function accountApi(core: ApiCore): AccountApi {
  return {
    stats: (signal) => core.data({ path: '/api/v0/stats', signal }, isAccountUsage, 'stats'),
    daily: (days, signal) => core.data({ path: '/api/v0/stats/daily', signal, query: { days } }, arrayOf(isDailyUsage), 'usage per day'),
    plans: (signal) => core.data({ path: '/api/v0/plans', keyless: true, signal }, arrayOf(isPlan), 'plans'),
  };
}

// The schemas check what the window reads of these answers (shared/schemas/account.ts).
export const isPartnerUserUsage = (value: unknown): value is PartnerUserUsage => is(PartnerUserUsageSchema, value);
export const isAccountUsage = (value: unknown): value is AccountUsage => is(AccountUsageSchema, value);
export const isPlan = (value: unknown): value is Plan => is(PlanSchema, value);
export const isDailyUsage = (value: unknown): value is DailyUsage => is(DailyUsageSchema, value);
