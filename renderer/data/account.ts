/**
 * The signed-in account in the request cache: its usage against the plan (kept current by `event:
 * usage`), whether it is a partner, and its usage per day (loaded again after usage moves, paced).
 */
import type { QueryClient } from '@tanstack/react-query';
import type { AccountUsage, DailyUsage } from '../../shared/api-types.js';
import { ApiError, isAbortError } from '../api/api-error.js';
import { useApiQuery, type ApiQuery } from './api-query.js';
import { isUnreachable } from './failure.js';
import type { LiveReloads } from './live-reloads.js';
import { queryKeys } from './query-keys.js';

/** After a usage event, the per-day figures are loaded again at most this often. */
export const DAILY_REFRESH_MS = 10_000;

export function useAccountUsage(): ApiQuery<AccountUsage> {
  return useApiQuery({ queryKey: queryKeys.account.usage(), load: (api, signal) => api.account.stats(signal) });
}

/**
 * Partner-ness only decides whether a link and a page show: a failed probe hides them rather than failing
 * the window. No answer at all is waited out like any load (it is asked again when the service is back).
 */
export function useIsPartner(): ApiQuery<boolean> {
  return useApiQuery({
    queryKey: queryKeys.account.partner(),
    load: (api, signal) =>
      api.partners.isPartner(signal).catch((error: unknown) => {
        if (isAbortError(error) || isUnreachable(error) || (error instanceof ApiError && error.isUnauthorized)) throw error;
        return false;
      }),
  });
}

/** Exactly `days` UTC days, oldest first, ending today. */
export function useDailyUsage(days: number): ApiQuery<DailyUsage[]> {
  return useApiQuery({ queryKey: queryKeys.account.daily(days), load: (api, signal) => api.account.daily(days, signal) });
}

/** `event: usage`: the figures as they are now; today's bar changed too, asked again after a pause (a busy upload does not refetch per event). */
export function usageEventToCache(client: QueryClient, usage: AccountUsage, reloads: LiveReloads): void {
  client.setQueryData(queryKeys.account.usage(), usage);
  reloads.after(queryKeys.account.dailies(), DAILY_REFRESH_MS);
}
