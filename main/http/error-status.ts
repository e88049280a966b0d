import { ErrorCodes, USUAL_CODE_OF_STATUS, type ErrorCode } from '../../shared/error-codes.js';
import type { ErrorEnvelope } from '../../shared/api-types.js';
import { isAppError, LimitReachedError } from '../base/errors.js';

/** The one table from error strings to HTTP statuses (contract section 3; docs/errors.md lists the same). */
export const STATUS_OF: Record<ErrorCode, number> = {
  [ErrorCodes.badInput]: 400,
  [ErrorCodes.unauthenticated]: 401,
  [ErrorCodes.balance]: 402,
  [ErrorCodes.permission]: 403,
  [ErrorCodes.planLimit]: 403,
  [ErrorCodes.hostNotAllowed]: 403,
  [ErrorCodes.originNotAllowed]: 403,
  [ErrorCodes.capacity]: 403,
  [ErrorCodes.notFound]: 404,
  [ErrorCodes.notAcceptable]: 406,
  [ErrorCodes.requestTimeout]: 408,
  [ErrorCodes.conflict]: 409,
  [ErrorCodes.notCached]: 412,
  [ErrorCodes.tooLarge]: 413,
  [ErrorCodes.uriTooLong]: 414,
  [ErrorCodes.mediaType]: 415,
  [ErrorCodes.range]: 416,
  [ErrorCodes.locked]: 423,
  [ErrorCodes.tooManyRequests]: 429,
  [ErrorCodes.headersTooLarge]: 431,
  [ErrorCodes.internal]: 500,
  [ErrorCodes.notImplemented]: 501,
  [ErrorCodes.badGateway]: 502,
  [ErrorCodes.loop]: 508,
};

/**
 * A 4xx raised by Fastify or one of its plugins (bad JSON of a route's schema, a broken URL, multipart limits,
 * an unreadable Content-Type, a path parameter too long) is answered with its status's usual string; a 4xx
 * status without one is answered as 400 bad_input, so that every string keeps the one status docs/errors.md
 * gives it.
 */
const frameworkCode = (status: number): ErrorCode => {
  const usual = status >= 400 && status < 500 ? USUAL_CODE_OF_STATUS[status] : undefined;
  return usual !== undefined && STATUS_OF[usual] === status ? usual : ErrorCodes.badInput;
};

/** What a failure may say beside its string: the parameter at fault, the plan limit reached. */
export interface FailureDetail {
  param?: string | undefined;
  limit?: string | undefined;
}

/** The contract's failure envelope for `error`: its status as `code`, `msg` for people, `error` for programs. */
export function failureEnvelope(error: ErrorCode, msg: string, detail: FailureDetail = {}): ErrorEnvelope {
  const envelope: ErrorEnvelope = { code: STATUS_OF[error], msg, error };
  if (detail.param !== undefined) envelope.param = detail.param;
  if (detail.limit !== undefined) envelope.limit = detail.limit;
  return envelope;
}

export interface MappedError {
  status: number;
  envelope: ErrorEnvelope;
  /**
   * True when the error is a fault of ours that must be logged (never shown to the client): a 500. The other
   * 5xx name someone else's failure (502 a DNS server, 508 a name loop in someone's records).
   */
  fault: boolean;
}

/** Errors raised by Fastify itself (bad JSON, unknown route, body limits) carry a 4xx `statusCode`. */
function frameworkStatus(error: unknown): number | null {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : null;
}

function mapped(envelope: ErrorEnvelope): MappedError {
  return { status: envelope.code, envelope, fault: envelope.error === ErrorCodes.internal };
}

export function mapError(error: unknown): MappedError {
  if (isAppError(error)) {
    const limit = error instanceof LimitReachedError ? error.limit : undefined;
    return mapped(failureEnvelope(error.code, error.message, { param: error.param, limit }));
  }
  const status = frameworkStatus(error);
  if (status !== null) {
    const message = error instanceof Error ? error.message : 'bad request';
    return mapped(failureEnvelope(frameworkCode(status), message));
  }
  return mapped(failureEnvelope(ErrorCodes.internal, 'internal error'));
}
