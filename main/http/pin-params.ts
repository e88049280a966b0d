import { BadInputError } from '../base/errors.js';
import type { Page } from '../pins/pins.js';

/**
 * The request parameters of the pin routes (contract section 6 and the list's extensions), checked into
 * what the pins domain takes; each refusal is a 400 naming its parameter.
 */

const MAX_PIN_NAME = 255;

export function parsePinName(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new BadInputError('name must be a string');
  if (value.length > MAX_PIN_NAME) throw new BadInputError(`name must be at most ${MAX_PIN_NAME} characters`);
  return value;
}

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
