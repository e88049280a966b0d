import { expect } from 'vitest';
import { STATUS_OF } from '../../main/http/error-status.js';
import type { ErrorEnvelope } from '../../shared/api-types.js';
import { isErrorCode, type ErrorCode } from '../../shared/error-codes.js';

const ENVELOPE_FIELDS = ['code', 'error', 'limit', 'msg', 'param'];

/**
 * Contract section 3 and docs/errors.md: a failure body is `{code, msg, error}` (+ `param` or `limit` where
 * known), `code` the HTTP status, `error` one of the documented strings whose status that is; `error`, when
 * given, is the string expected. Returns the envelope for further checks of `msg`.
 */
export function expectFailureEnvelope(body: unknown, status: number, error?: ErrorCode): ErrorEnvelope {
  expect(body).toBeTypeOf('object');
  expect(body).not.toBeNull();
  const envelope = body as ErrorEnvelope;
  expect(Object.keys(envelope).filter((field) => !ENVELOPE_FIELDS.includes(field))).toEqual([]);
  expect(envelope.code).toBe(status);
  expect(envelope.msg).toBeTypeOf('string');
  expect(isErrorCode(envelope.error), `error ${String(envelope.error)} is a documented string`).toBe(true);
  expect(STATUS_OF[envelope.error], `the status of error ${envelope.error}`).toBe(status);
  if (error !== undefined) expect(envelope.error).toBe(error);
  return envelope;
}
