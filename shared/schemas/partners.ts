import { number, object, string } from 'valibot';

/** A row of `GET /api/v0/partner/users` (a partner user's stats: account.ts's PartnerUserUsageSchema). */
export const PartnerUserSummarySchema = object({
  uuid: string(),
  name: string(),
  plan: string(),
  created_at: number(),
  pinned_bytes: number(),
  pinned_count: number(),
});
