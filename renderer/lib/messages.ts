/**
 * One readable sentence for the user about a failed call, shown next to the action that failed. It is
 * chosen by the failure's stable `error` string (docs/errors.md), never by the wording of `msg`; the
 * service's own `msg` is kept in it: it names the parameter or the resource at fault.
 */
import { ApiError } from '../api/api-error.js';

const LIMIT_NAMES: Record<string, string> = {
  pinned_count: 'pins',
  pinned_bytes: 'pinned storage',
  ingress: 'uploads this month (ingress)',
  egress: 'downloads this month (egress)',
  ipns: 'IPNS names',
};

/** "name is too long" → "Name is too long." */
export function sentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  const first = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(first) ? first : `${first}.`;
}

function planLimit(limit: string | undefined): string {
  const what = limit === undefined ? undefined : (LIMIT_NAMES[limit] ?? limit);
  const reached = what === undefined ? "Your plan's limit is reached." : `Your plan's limit on ${what} is reached.`;
  return `${reached} Unpin something or move to a larger plan.`;
}

function describeApiError(error: ApiError): string {
  if (error.kind !== 'http') return error.msg;
  const msg = error.msg;
  switch (error.error) {
    case 'bad_input':
    case 'conflict':
      return sentence(msg);
    case 'unauthenticated':
      return `The service did not accept this access key: ${msg}.`;
    case 'balance':
      // The service says which fee the balance does not cover; the refusal charged and changed nothing.
      return `${sentence(msg)} Nothing was charged.`;
    case 'plan_limit':
      return planLimit(error.detail.limit);
    case 'permission':
    case 'host_not_allowed':
    case 'origin_not_allowed':
    case 'capacity':
      return `Not allowed: ${msg}.`;
    case 'not_found':
      return `Not found: ${msg}.`;
    case 'too_large':
      return `Too large: ${msg}.`;
    case 'locked':
    case 'too_many_requests':
      return `${sentence(msg)} Try again in a moment.`;
    default:
      return error.code >= 500 ? `The service failed (${error.code}): ${msg}.` : `The service answered ${error.code}: ${msg}.`;
  }
}

export function describeError(error: unknown): string {
  if (error instanceof ApiError) return describeApiError(error);
  if (error instanceof Error) return `Something went wrong: ${error.message}`;
  return 'Something went wrong.';
}
