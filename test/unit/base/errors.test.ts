import { describe, expect, it } from 'vitest';
import {
  AppError,
  BadInputError,
  ConflictError,
  ForbiddenError,
  isAppError,
  LimitReachedError,
  NotFoundError,
  PaymentRequiredError,
  UnauthorizedError,
} from '../../../main/base/errors.js';
import { ErrorCodes } from '../../../shared/error-codes.js';

describe('AppError subclasses', () => {
  it('carry a fixed code and a stable name', () => {
    const cases: [AppError, string, string][] = [
      [new BadInputError('x'), ErrorCodes.badInput, 'BadInputError'],
      [new UnauthorizedError('x'), ErrorCodes.unauthenticated, 'UnauthorizedError'],
      [new PaymentRequiredError('x'), ErrorCodes.balance, 'PaymentRequiredError'],
      [new ForbiddenError('x'), ErrorCodes.permission, 'ForbiddenError'],
      [new NotFoundError('x'), ErrorCodes.notFound, 'NotFoundError'],
      [new ConflictError('x'), ErrorCodes.conflict, 'ConflictError'],
    ];
    for (const [error, code, name] of cases) {
      expect(error.code).toBe(code);
      expect(error.name).toBe(name);
      expect(isAppError(error)).toBe(true);
    }
    expect(isAppError(new Error('plain'))).toBe(false);
  });

  it('LimitReachedError names the counter', () => {
    const error = new LimitReachedError('pinned_bytes');
    expect(error.limit).toBe('pinned_bytes');
    expect(error.message).toBe('plan limit reached: pinned_bytes');
    expect(error.code).toBe(ErrorCodes.planLimit);
  });
});
