import { number, object, pipe, regex, string } from 'valibot';
import type { AccountUsage, PartnerUserUsage } from '../api-types.js';

/**
 * The usage fields the window does not check: it shows the account's e-mail, next plan and balance where
 * they are sent and falls back where they are not, and never reads the rest, so an answer without them
 * (an older or newer service) is still read.
 */
export type UncheckedUsageField = 'provider' | 'email' | 'email_verified' | 'next_plan';
export type UncheckedAccountField = UncheckedUsageField | 'eth_addr' | 'token_amount';

/** `GET /api/v0/partner/user/stats`: a user's usage against its plan's limits. */
export const PartnerUserUsageSchema = object({
  name: string(),
  plan: string(),
  next_bill_at: number(),
  pinned_count: number(),
  pinned_count_limit: number(),
  pinned_bytes: number(),
  pinned_bytes_limit: number(),
  ingress: number(),
  ingress_limit: number(),
  egress: number(),
  egress_limit: number(),
  ipns: number(),
  ipns_limit: number(),
});
export type CheckedPartnerUserUsage = Omit<PartnerUserUsage, UncheckedUsageField>;

/** `GET /api/v0/stats` and the `usage` event: what the window checks of it is what it checks of a partner user's. */
export const AccountUsageSchema = PartnerUserUsageSchema;
export type CheckedAccountUsage = Omit<AccountUsage, UncheckedAccountField>;

/** A row of `GET /api/v0/plans`. */
export const PlanSchema = object({
  id: number(),
  name: string(),
  price: string(),
  pinned_count_limit: number(),
  pinned_bytes_limit: number(),
  ingress_limit: number(),
  egress_limit: number(),
  ipns_limit: number(),
});

/** A day of `GET /api/v0/stats/daily`. */
export const DailyUsageSchema = object({
  day: pipe(string(), regex(/^\d{4}-\d{2}-\d{2}$/)),
  ingress: number(),
  egress: number(),
  pinned_bytes: number(),
  pinned_count: number(),
});
