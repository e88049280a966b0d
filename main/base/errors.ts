import { ErrorCodes, type ErrorCode } from '../../shared/error-codes.js';

/**
 * The one error type domains throw. `code` is the envelope's stable `error` string (shared/error-codes.ts).
 * `message` reaches the client, so it must name the parameter or resource at fault and never carry SQL,
 * paths of the data folder or secrets. `param`, when given, is the request parameter at fault, sent as the
 * envelope's `param` so that a form can show the refusal beside its field without reading `msg`.
 */
export class AppError extends Error {
  override readonly name: string = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

export class BadInputError extends AppError {
  override readonly name = 'BadInputError';
  constructor(message: string, param?: string) {
    super(ErrorCodes.badInput, message, param);
  }
}

export class UnauthorizedError extends AppError {
  override readonly name = 'UnauthorizedError';
  constructor(message: string) {
    super(ErrorCodes.unauthenticated, message);
  }
}

/**
 * A session key (issue 12) used after its expiry: 401 like any refused credential, with a message that
 * tells the window to sign in again rather than suspect a wrong secret.
 */
export class SessionExpiredError extends AppError {
  override readonly name = 'SessionExpiredError';
  constructor() {
    super(ErrorCodes.unauthenticated, 'session expired');
  }
}

export class PaymentRequiredError extends AppError {
  override readonly name = 'PaymentRequiredError';
  constructor(message: string) {
    super(ErrorCodes.balance, message);
  }
}

/** The refusals answered 403 apart from a plan limit (LimitReachedError), each with its own string. */
export type ForbiddenCode = typeof ErrorCodes.permission | typeof ErrorCodes.hostNotAllowed | typeof ErrorCodes.capacity;

/** A 403: by default a permission the key lacks, or a call for the owner or a partner only (`permission`). */
export class ForbiddenError extends AppError {
  override readonly name = 'ForbiddenError';
  constructor(message: string, code: ForbiddenCode = ErrorCodes.permission) {
    super(code, message);
  }
}

/** A plan limit would be passed by the change; `limit` is the counter's name, e.g. `pinned_bytes`. */
export class LimitReachedError extends AppError {
  override readonly name = 'LimitReachedError';
  constructor(readonly limit: string) {
    super(ErrorCodes.planLimit, `plan limit reached: ${limit}`);
  }
}

export class NotFoundError extends AppError {
  override readonly name = 'NotFoundError';
  constructor(message: string) {
    super(ErrorCodes.notFound, message);
  }
}

export class ConflictError extends AppError {
  override readonly name = 'ConflictError';
  constructor(message: string, param?: string) {
    super(ErrorCodes.conflict, message, param);
  }
}

export class PayloadTooLargeError extends AppError {
  override readonly name = 'PayloadTooLargeError';
  constructor(message: string) {
    super(ErrorCodes.tooLarge, message);
  }
}

export class RequestTimeoutError extends AppError {
  override readonly name = 'RequestTimeoutError';
  constructor(message: string) {
    super(ErrorCodes.requestTimeout, message);
  }
}

export class LockedError extends AppError {
  override readonly name = 'LockedError';
  constructor(message: string) {
    super(ErrorCodes.locked, message);
  }
}

export class TooManyRequestsError extends AppError {
  override readonly name = 'TooManyRequestsError';
  constructor(message: string) {
    super(ErrorCodes.tooManyRequests, message);
  }
}

export class NotAcceptableError extends AppError {
  override readonly name = 'NotAcceptableError';
  constructor(message: string) {
    super(ErrorCodes.notAcceptable, message);
  }
}

export class RangeNotSatisfiableError extends AppError {
  override readonly name = 'RangeNotSatisfiableError';
  constructor(
    message: string,
    readonly size: number,
  ) {
    super(ErrorCodes.range, message);
  }
}

/** A name resolution that comes back to a name it passed, or needs more steps than are followed (508). */
export class LoopDetectedError extends AppError {
  override readonly name = 'LoopDetectedError';
  constructor(message: string) {
    super(ErrorCodes.loop, message);
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
