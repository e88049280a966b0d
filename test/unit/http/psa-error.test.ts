import { describe, expect, it } from 'vitest';
import { BadInputError, ForbiddenError, LimitReachedError, NotFoundError, UnauthorizedError } from '../../../main/base/errors.js';
import { mapPsaError } from '../../../main/http/psa-error.js';

describe('PSA failures (contract section 11)', () => {
  it("answers in the PSA's shape with the contract's status, a plan limit as 409 INSUFFICIENT_FUNDS", () => {
    expect(mapPsaError(new BadInputError('cid is required (a CID)'))).toEqual({
      status: 400,
      body: { error: { reason: 'BAD_REQUEST', details: 'cid is required (a CID)' } },
      fault: false,
    });
    expect(mapPsaError(new UnauthorizedError('invalid token')).body.error.reason).toBe('UNAUTHORIZED');
    expect(mapPsaError(new ForbiddenError('permission missing: unpin'))).toMatchObject({ status: 403, body: { error: { reason: 'FORBIDDEN' } } });
    expect(mapPsaError(new NotFoundError('no pin'))).toMatchObject({ status: 404, body: { error: { reason: 'NOT_FOUND' } } });
    expect(mapPsaError(new LimitReachedError('pinned_count'))).toEqual({
      status: 409,
      body: { error: { reason: 'INSUFFICIENT_FUNDS', details: 'plan limit reached: pinned_count' } },
      fault: false,
    });
  });

  it('never describes a fault of ours', () => {
    expect(mapPsaError(new Error('SELECT * FROM pins failed'))).toEqual({
      status: 500,
      body: { error: { reason: 'INTERNAL_SERVER_ERROR', details: 'internal error' } },
      fault: true,
    });
  });
});
