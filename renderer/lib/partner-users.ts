/**
 * The Partners page's rules as pure functions: what a new user's form accepts (the service's own
 * checks of partner/user/create, made first so each error sits beside its field) and how two plans'
 * limits compare before a plan change.
 */
import type { PartnerUserUsage, Plan } from '../../shared/api-types.js';
import { formatLimit, type UsageUnit } from './format.js';

/** The limits of main/http/routes/partner.ts. */
export const MAX_USER_NAME_LENGTH = 256;
export const MAX_EMAIL_LENGTH = 320;
export const MAX_UUID_LENGTH = 128;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface NewUserFields {
  name: string;
  email: string;
  uuid: string;
}

export type NewUserCheck = { ok: true; user: NewUserFields } | { ok: false; errors: Partial<Record<keyof NewUserFields, string>> };

/** Trims each field and checks it as the service will. */
export function checkNewUser(fields: NewUserFields): NewUserCheck {
  const user = { name: fields.name.trim(), email: fields.email.trim(), uuid: fields.uuid.trim() };
  const errors: Partial<Record<keyof NewUserFields, string>> = {};
  if (user.name === '') errors.name = "Enter the user's name.";
  else if (user.name.length > MAX_USER_NAME_LENGTH) errors.name = `Use at most ${MAX_USER_NAME_LENGTH} characters.`;
  if (user.email === '') errors.email = "Enter the user's e-mail address.";
  else if (user.email.length > MAX_EMAIL_LENGTH || !EMAIL.test(user.email)) errors.email = 'Enter an e-mail address such as name@example.com.';
  if (user.uuid === '') errors.uuid = 'Enter an ID for the user, such as the one your own system knows it by.';
  else if (user.uuid.length > MAX_UUID_LENGTH) errors.uuid = `Use at most ${MAX_UUID_LENGTH} characters.`;
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, user };
}

export interface LimitComparison {
  label: string;
  now: string;
  after: string;
  /** 'up' when the new plan allows more, 'down' when less. */
  change: 'same' | 'up' | 'down';
}

const LIMITS: ReadonlyArray<{ key: 'pinned_count' | 'pinned_bytes' | 'ingress' | 'egress' | 'ipns'; label: string; unit: UsageUnit }> = [
  { key: 'pinned_count', label: 'Pins', unit: 'count' },
  { key: 'pinned_bytes', label: 'Pinned storage', unit: 'bytes' },
  { key: 'ingress', label: 'Uploads a month', unit: 'bytes' },
  { key: 'egress', label: 'Downloads a month', unit: 'bytes' },
  { key: 'ipns', label: 'IPNS names', unit: 'count' },
];

/** The user's limits now against the plan's, row by row. */
export function compareLimits(current: PartnerUserUsage, plan: Plan): LimitComparison[] {
  return LIMITS.map(({ key, label, unit }) => {
    const now = current[`${key}_limit`];
    const after = plan[`${key}_limit`];
    return { label, now: formatLimit(now, unit), after: formatLimit(after, unit), change: after === now ? 'same' : after > now ? 'up' : 'down' };
  });
}

/** Plans the user can move to: every listed plan but the one it is on (matched by name, as stats name it). */
export function otherPlans(plans: readonly Plan[], currentPlanName: string): Plan[] {
  return plans.filter((plan) => plan.name !== currentPlanName);
}

/** The Partners page's address for one user (`?user=`), or back to the list: the list's page and size stay. */
export function partnersHref(params: URLSearchParams, uuid: string | null): string {
  const next = new URLSearchParams(params);
  if (uuid === null) next.delete('user');
  else next.set('user', uuid);
  const search = next.toString();
  return search ? `/partners?${search}` : '/partners';
}
