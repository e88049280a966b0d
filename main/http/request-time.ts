import { BadInputError, UnauthorizedError } from '../base/errors.js';

/**
 * `ts` is required on every operation but the plan list and step 2 of uploads: missing or not an
 * integer is 400, further than the window from the server clock is 401 (a stale request may be a replay).
 */
export function checkRequestTime(ts: string | undefined, nowSeconds: number, windowSeconds: number): void {
  if (ts === undefined || ts === '') throw new BadInputError('ts is required (Unix time in seconds)');
  if (!/^-?\d{1,15}$/.test(ts)) throw new BadInputError('ts must be an integer (Unix time in seconds)');
  if (Math.abs(Number(ts) - nowSeconds) > windowSeconds) throw new UnauthorizedError(`ts is more than ${windowSeconds} s away from the server clock`);
}
