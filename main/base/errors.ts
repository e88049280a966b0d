import { ErrorCodes, type ErrorCode } from '../../shared/error-codes.js';

/**
 * The one error type domains throw. `message` reaches the client, so it must name the parameter
 * or resource at fault and never carry SQL, paths of the data folder or secrets.
 */
export class AppError extends Error {
  override readonly name: string = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export class BadInputError extends AppError {
  override readonly name = 'BadInputError';
  constructor(message: string) {
    super(ErrorCodes.badInput, message);
  }
}

export class UnauthorizedError extends AppError {
  override readonly name = 'UnauthorizedError';
  constructor(message: string) {
    super(ErrorCodes.unauthorized, message);
  }
}

/**
 * A session key (issue 12) used after its expiry: 401 like any refused credential, with a message that
 * tells the window to sign in again rather than suspect a wrong secret.
 */
export class SessionExpiredError extends AppError {
  override readonly name = 'SessionExpiredError';
  constructor() {
    super(ErrorCodes.unauthorized, 'session expired');
  }
}

export class PaymentRequiredError extends AppError {
  override readonly name = 'PaymentRequiredError';
  constructor(message: string) {
    super(ErrorCodes.paymentRequired, message);
  }
}

export class ForbiddenError extends AppError {
  override readonly name = 'ForbiddenError';
  constructor(message: string) {
    super(ErrorCodes.forbidden, message);
  }
}

/** A plan limit would be passed by the change; `limit` is the counter's name, e.g. `pinned_bytes`. */
export class LimitReachedError extends AppError {
  override readonly name = 'LimitReachedError';
  constructor(readonly limit: string) {
    super(ErrorCodes.limitReached, `plan limit reached: ${limit}`);
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
  constructor(message: string) {
    super(ErrorCodes.conflict, message);
  }
}

export class PayloadTooLargeError extends AppError {
  override readonly name = 'PayloadTooLargeError';
  constructor(message: string) {
    super(ErrorCodes.payloadTooLarge, message);
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
    super(ErrorCodes.rangeNotSatisfiable, message);
  }
}

/** A name resolution that comes back to a name it passed, or needs more steps than are followed (508). */
export class LoopDetectedError extends AppError {
  override readonly name = 'LoopDetectedError';
  constructor(message: string) {
    super(ErrorCodes.loopDetected, message);
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
