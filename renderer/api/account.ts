import type { AccountUsage, DailyUsage, PartnerUserUsage, Plan } from '../../shared/api-types.js';
import type { ApiCore } from './core.js';
import { arrayOf, hasNumbers, hasStrings, isRecord } from './shape.js';

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

const USAGE_NUMBERS = [
  'next_bill_at',
  'pinned_count',
  'pinned_count_limit',
  'pinned_bytes',
  'pinned_bytes_limit',
  'ingress',
  'ingress_limit',
  'egress',
  'egress_limit',
  'ipns',
  'ipns_limit',
] as const;

export function isPartnerUserUsage(value: unknown): value is PartnerUserUsage {
  return isRecord(value) && hasStrings(value, ['name', 'plan']) && hasNumbers(value, USAGE_NUMBERS);
}

export function isAccountUsage(value: unknown): value is AccountUsage {
  return isPartnerUserUsage(value);
}

const PLAN_NUMBERS = ['id', 'pinned_count_limit', 'pinned_bytes_limit', 'ingress_limit', 'egress_limit', 'ipns_limit'] as const;

export function isPlan(value: unknown): value is Plan {
  return isRecord(value) && hasStrings(value, ['name', 'price']) && hasNumbers(value, PLAN_NUMBERS);
}

export function isDailyUsage(value: unknown): value is DailyUsage {
  return (
    isRecord(value) &&
    typeof value.day === 'string' &&
    /^\d{4}-\d{2}-\d{2}$/.test(value.day) &&
    hasNumbers(value, ['ingress', 'egress', 'pinned_bytes', 'pinned_count'])
  );
}
