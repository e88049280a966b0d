/**
 * One readable sentence for the user about a failed call, shown next to the action that failed. The
 * service's own `msg` is kept: it names the parameter or the limit at fault.
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

export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.kind !== 'http') return error.msg;
    const msg = error.msg;
    const limit = /^plan limit reached: (\w+)/.exec(msg);
    if (error.code === 403 && limit) {
      const what = LIMIT_NAMES[limit[1] ?? ''] ?? limit[1];
      return `Your plan's limit on ${what} is reached. Unpin something or move to a larger plan.`;
    }
    switch (error.code) {
      case 400:
      case 409:
        return sentence(msg);
      case 401:
        return `The service did not accept this access key: ${msg}.`;
      case 402:
        // The service says which fee the balance does not cover; the refusal charged and changed nothing.
        return `${sentence(msg)} Nothing was charged.`;
      case 403:
        return `Not allowed: ${msg}.`;
      case 404:
        return `Not found: ${msg}.`;
      case 413:
        return `Too large: ${msg}.`;
      case 423:
      case 429:
        return `${sentence(msg)} Try again in a moment.`;
      default:
        return error.code >= 500 ? `The service failed (${error.code}): ${msg}.` : `The service answered ${error.code}: ${msg}.`;
    }
  }
  if (error instanceof Error) return `Something went wrong: ${error.message}`;
  return 'Something went wrong.';
}
