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
  RangeNotSatisfiableError,
  RequestTimeoutError,
  UnauthorizedError,
} from '../../../main/base/errors.js';
import { failureEnvelope, mapError } from '../../../main/http/error-status.js';
import { DnsLookupError } from '../../../main/names/dnslink.js';
import { ErrorCodes } from '../../../shared/error-codes.js';

describe('error → envelope', () => {
  it('maps each AppError to the status of contract section 3, with the message in msg and the stable string in error', () => {
    const cases: [Error, number, string][] = [
      [new BadInputError('cid is not a CID'), 400, 'bad_input'],
      [new UnauthorizedError('bad key'), 401, 'unauthenticated'],
      [new PaymentRequiredError('balance too low'), 402, 'balance'],
      [new ForbiddenError('permission missing: admin'), 403, 'permission'],
      [new ForbiddenError('Host "evil.example" is not allowed', ErrorCodes.hostNotAllowed), 403, 'host_not_allowed'],
      [new NotFoundError('no such key'), 404, 'not_found'],
      [new RequestTimeoutError('idle'), 408, 'request_timeout'],
      [new ConflictError('dup'), 409, 'conflict'],
      [new PayloadTooLargeError('too big'), 413, 'too_large'],
      [new RangeNotSatisfiableError('range: not satisfiable for 3 bytes', 3), 416, 'range'],
      [new LockedError('importing'), 423, 'locked'],
    ];
    for (const [error, status, code] of cases) {
      expect(mapError(error)).toEqual({ status, envelope: { code: status, msg: error.message, error: code }, fault: false });
    }
  });

  it('a plan limit is plan_limit and names the limit; a parameter at fault is named when known', () => {
    expect(mapError(new LimitReachedError('pinned_bytes')).envelope).toEqual({
      code: 403,
      msg: 'plan limit reached: pinned_bytes',
      error: 'plan_limit',
      limit: 'pinned_bytes',
    });
    expect(mapError(new BadInputError('path must be absolute', 'path')).envelope).toEqual({
      code: 400,
      msg: 'path must be absolute',
      error: 'bad_input',
      param: 'path',
    });
    expect(mapError(new ConflictError('path: /a is already synced', 'path')).envelope).toMatchObject({ code: 409, error: 'conflict', param: 'path' });
  });

  it('a name loop is 508 and a failing DNS server 502; neither is a fault of ours to log', () => {
    expect(mapError(new LoopDetectedError('a -> a is a loop'))).toEqual({
      status: 508,
      envelope: { code: 508, msg: 'a -> a is a loop', error: 'loop' },
      fault: false,
    });
    expect(mapError(new DnsLookupError('DNS lookup of x failed'))).toMatchObject({ status: 502, envelope: { error: 'bad_gateway' }, fault: false });
    expect(mapError(new AppError(ErrorCodes.internal, 'broken block'))).toEqual({
      status: 500,
      envelope: { code: 500, msg: 'broken block', error: 'internal' },
      fault: true,
    });
  });

  it('framework 4xx errors keep their status and get its string; one with no string of its own is a 400', () => {
    const unreadableType = Object.assign(new Error('Unsupported Media Type'), { statusCode: 415 });
    expect(mapError(unreadableType)).toEqual({ status: 415, envelope: { code: 415, msg: 'Unsupported Media Type', error: 'media_type' }, fault: false });
    const badJson = Object.assign(new Error('Body is not valid JSON'), { statusCode: 400 });
    expect(mapError(badJson).envelope).toEqual({ code: 400, msg: 'Body is not valid JSON', error: 'bad_input' });
    const tooLong = Object.assign(new Error("'/x' is exceeding the max param length"), { statusCode: 414 });
    expect(mapError(tooLong).envelope).toMatchObject({ code: 414, error: 'uri_too_long' });
    const parts = Object.assign(new Error('reach parts limit'), { statusCode: 413 });
    expect(mapError(parts).envelope).toMatchObject({ code: 413, error: 'too_large' });
    const teapot = Object.assign(new Error("I'm a teapot"), { statusCode: 418 });
    expect(mapError(teapot)).toEqual({ status: 400, envelope: { code: 400, msg: "I'm a teapot", error: 'bad_input' }, fault: false });
  });

  it('anything else is a 500 that shows nothing of the fault', () => {
    const sqlError = Object.assign(new Error('SQLITE_ERROR: no such table: accounts near "SELECT * FROM"'), { code: 'SQLITE_ERROR' });
    expect(mapError(sqlError)).toEqual({ status: 500, envelope: { code: 500, msg: 'internal error', error: 'internal' }, fault: true });
    expect(mapError(Object.assign(new Error('x'), { statusCode: 503 })).status).toBe(500);
    expect(mapError('a string').status).toBe(500);
  });

  it('builds an envelope for a string with its one status', () => {
    expect(failureEnvelope(ErrorCodes.notCached, 'cid: x is not held locally')).toEqual({ code: 412, msg: 'cid: x is not held locally', error: 'not_cached' });
    expect(failureEnvelope(ErrorCodes.originNotAllowed, 'origin not allowed')).toEqual({ code: 403, msg: 'origin not allowed', error: 'origin_not_allowed' });
  });
});
