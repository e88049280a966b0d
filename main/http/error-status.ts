import { ErrorCodes, type ErrorCode } from '../../shared/error-codes.js';
import type { ErrorEnvelope } from '../../shared/api-types.js';
import { isAppError } from '../base/errors.js';

/** The one table from error codes to HTTP statuses (contract section 3). */
export const STATUS_OF: Record<ErrorCode, number> = {
  [ErrorCodes.badInput]: 400,
  [ErrorCodes.unauthorized]: 401,
  [ErrorCodes.paymentRequired]: 402,
  [ErrorCodes.forbidden]: 403,
  [ErrorCodes.limitReached]: 403,
  [ErrorCodes.notFound]: 404,
  [ErrorCodes.notAcceptable]: 406,
  [ErrorCodes.conflict]: 409,
  [ErrorCodes.requestTimeout]: 408,
  [ErrorCodes.payloadTooLarge]: 413,
  [ErrorCodes.rangeNotSatisfiable]: 416,
  [ErrorCodes.locked]: 423,
  [ErrorCodes.tooManyRequests]: 429,
  [ErrorCodes.internal]: 500,
  [ErrorCodes.badGateway]: 502,
  [ErrorCodes.loopDetected]: 508,
};

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

export function mapError(error: unknown): MappedError {
  if (isAppError(error)) {
    const status = STATUS_OF[error.code];
    return { status, envelope: { code: status, msg: error.message }, fault: status === 500 };
  }
  const status = frameworkStatus(error);
  if (status !== null) {
    const message = error instanceof Error ? error.message : 'bad request';
    return { status, envelope: { code: status, msg: message }, fault: false };
  }
  return { status: 500, envelope: { code: 500, msg: 'internal error' }, fault: true };
}
