import { ErrorCodes, isErrorCode, USUAL_CODE_OF_STATUS, type ErrorCode } from '../../shared/error-codes.js';

/** `http`: the service answered with an error envelope; `network`: no answer; `protocol`: an answer that is not the API's. */
export type ApiErrorKind = 'http' | 'network' | 'protocol';

/** What a failure envelope may say beside `error` (docs/errors.md). */
export interface FailureDetail {
  /** The request parameter at fault (`bad_input`, `conflict`), where the service names it. */
  param?: string;
  /** The plan limit reached (`plan_limit`): pinned_count, pinned_bytes, ingress, egress, ipns. */
  limit?: string;
}

/** Every failed API call rejects with this (an aborted one rejects with the fetch AbortError instead). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /**
   * The envelope's stable `error` string, what callers switch on (never `msg`'s wording); for an answer
   * without one, the string its status stands for; null when there was no API answer (`network`,
   * `protocol`) or the status stands for none.
   */
  readonly error: ErrorCode | null;

  constructor(
    readonly kind: ApiErrorKind,
    /** The envelope's `code` (an HTTP status); 0 when there was no answer at all. */
    readonly code: number,
    /** The envelope's `msg`, or a description of what went wrong. */
    readonly msg: string,
    /** The envelope's `error`, when it sent one. */
    error?: ErrorCode,
    readonly detail: FailureDetail = {},
  ) {
    super(code > 0 ? `${code}: ${msg}` : msg);
    this.error = kind !== 'http' ? null : (error ?? USUAL_CODE_OF_STATUS[code] ?? null);
  }

  get isUnauthorized(): boolean {
    return this.error === ErrorCodes.unauthenticated;
  }

  get isUnreachable(): boolean {
    return this.kind === 'network';
  }
}

/** A failure envelope (`{code, msg, error, param?, limit?}`) as an {@link ApiError}; `status` stands in for a missing `code`. */
export function apiErrorOf(envelope: Record<string, unknown>, status: number): ApiError {
  const code = typeof envelope.code === 'number' && envelope.code !== 200 ? envelope.code : status;
  const msg = typeof envelope.msg === 'string' && envelope.msg !== '' ? envelope.msg : `request failed with status ${status}`;
  const detail: FailureDetail = {};
  if (typeof envelope.param === 'string') detail.param = envelope.param;
  if (typeof envelope.limit === 'string') detail.limit = envelope.limit;
  return new ApiError('http', code, msg, isErrorCode(envelope.error) ? envelope.error : undefined, detail);
}

/** True for the rejection of a call whose AbortSignal fired: not a failure to report. */
export function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}
