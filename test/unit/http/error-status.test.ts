import { describe, expect, it } from 'vitest';
import {
  AppError,
  BadInputError,
  ConflictError,
  ForbiddenError,
  LimitReachedError,
  LockedError,
  LoopDetectedError,
  NotFoundError,
  PayloadTooLargeError,
  PaymentRequiredError,
  RequestTimeoutError,
  UnauthorizedError,
} from '../../../main/base/errors.js';
import { mapError, STATUS_OF } from '../../../main/http/error-status.js';
import { DnsLookupError } from '../../../main/names/dnslink.js';
import { ErrorCodes } from '../../../shared/error-codes.js';

describe('error → status table', () => {
  it('maps each AppError to the status of contract section 3, with the message in msg', () => {
    const cases: [Error, number][] = [
      [new BadInputError('cid is not a CID'), 400],
      [new UnauthorizedError('bad key'), 401],
      [new PaymentRequiredError('balance too low'), 402],
      [new ForbiddenError('permission missing: admin'), 403],
      [new LimitReachedError('pinned_bytes'), 403],
      [new NotFoundError('no such key'), 404],
      [new RequestTimeoutError('idle'), 408],
      [new ConflictError('dup'), 409],
      [new PayloadTooLargeError('too big'), 413],
      [new LockedError('importing'), 423],
    ];
    for (const [error, status] of cases) {
      expect(mapError(error)).toEqual({ status, envelope: { code: status, msg: error.message }, fault: false });
    }
  });

  it('a name loop is 508 and a failing DNS server 502; neither is a fault of ours to log', () => {
    expect(mapError(new LoopDetectedError('a -> a is a loop'))).toEqual({ status: 508, envelope: { code: 508, msg: 'a -> a is a loop' }, fault: false });
    expect(mapError(new DnsLookupError('DNS lookup of x failed'))).toMatchObject({ status: 502, fault: false });
    expect(mapError(new AppError(ErrorCodes.internal, 'broken block'))).toEqual({ status: 500, envelope: { code: 500, msg: 'broken block' }, fault: true });
  });

  it('every error code has a status', () => {
    for (const code of Object.values(ErrorCodes)) expect(STATUS_OF[code]).toBeGreaterThanOrEqual(400);
  });

  it('framework 4xx errors keep their status', () => {
    const error = Object.assign(new Error('Unsupported Media Type'), { statusCode: 415 });
    expect(mapError(error)).toEqual({ status: 415, envelope: { code: 415, msg: 'Unsupported Media Type' }, fault: false });
  });

  it('anything else is a 500 that shows nothing of the fault', () => {
    const sqlError = Object.assign(new Error('SQLITE_ERROR: no such table: accounts near "SELECT * FROM"'), { code: 'SQLITE_ERROR' });
    expect(mapError(sqlError)).toEqual({ status: 500, envelope: { code: 500, msg: 'internal error' }, fault: true });
    expect(mapError(Object.assign(new Error('x'), { statusCode: 503 })).status).toBe(500);
    expect(mapError('a string').status).toBe(500);
  });
});
