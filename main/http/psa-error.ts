import { ErrorCodes } from '../../shared/error-codes.js';
import { isAppError } from '../base/errors.js';
import { mapError } from './error-status.js';

/** The Pinning Service API's `Failure` (spec 1.0.0): `reason` for machines, `details` for people. */
export interface PsaFailure {
  error: { reason: string; details: string };
}

export interface MappedPsaError {
  status: number;
  body: PsaFailure;
  /** A fault of ours (500), logged; never described to the client beyond "internal error". */
  fault: boolean;
}

/** The spec's reasons where it names them (BAD_REQUEST … INTERNAL_SERVER_ERROR), the HTTP phrase otherwise. */
const REASONS: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  406: 'NOT_ACCEPTABLE',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  416: 'RANGE_NOT_SATISFIABLE',
  423: 'LOCKED',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  502: 'BAD_GATEWAY',
  508: 'LOOP_DETECTED',
};

/**
 * Any failure of a `/psa` request in the PSA's shape, with the status the contract gives it (error-status.ts),
 * but for a plan limit: the PSA's 409 `INSUFFICIENT_FUNDS` (contract section 11), its details naming the limit.
 */
export function mapPsaError(error: unknown): MappedPsaError {
  const mapped = mapError(error);
  if (isAppError(error) && error.code === ErrorCodes.planLimit) {
    return { status: 409, body: { error: { reason: 'INSUFFICIENT_FUNDS', details: mapped.envelope.msg } }, fault: false };
  }
  const reason = REASONS[mapped.status] ?? `HTTP_${mapped.status}`;
  return { status: mapped.status, body: { error: { reason, details: mapped.envelope.msg } }, fault: mapped.fault };
}
