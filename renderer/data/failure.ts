/**
 * What a page shows of a failed call: a sentence beside what failed, or nothing when someone else says it
 * already (the banner for an unreachable service, the session for a 401; an abort is nobody's failure).
 */
import { ApiError, isAbortError } from '../api/api-error.js';
import { describeError } from '../lib/messages.js';

export function isUnreachable(error: unknown): boolean {
  return error instanceof ApiError && error.isUnreachable;
}

export function failureSentence(error: unknown): string | null {
  if (error === null || error === undefined || isAbortError(error) || isUnreachable(error)) return null;
  if (error instanceof ApiError && error.isUnauthorized) return null;
  return describeError(error);
}
