import { BadInputError } from '../base/errors.js';
import type { Page } from '../pins/pins.js';

/**
 * The page parameters the partner routes still read by hand (the pin routes' schemas are in
 * input/pin-input.ts); each refusal is a 400 naming its parameter.
 */

function integerParam(value: unknown, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) throw new BadInputError(`${name} must be an integer from ${min} to ${max}`);
  const n = Number(value);
  if (n < min || n > max) throw new BadInputError(`${name} must be an integer from ${min} to ${max}`);
  return n;
}

/** `limit` 1..1000 (default 10), `start` >= 0 (default 0); anything else is 400 (contract section 6). */
export function parsePage(query: Record<string, unknown>): Page {
  return {
    limit: integerParam(query.limit, 'limit', 10, 1, 1000),
    start: integerParam(query.start, 'start', 0, 0, Number.MAX_SAFE_INTEGER),
  };
}
