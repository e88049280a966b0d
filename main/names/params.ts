import { BadInputError } from '../base/errors.js';

const MAX_ALIAS_LENGTH = 256;

/** An optional alias: undefined, null or '' mean none. */
export function parseOptionalAlias(value: unknown, param: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw new BadInputError(`${param} must be a string`);
  if (value.length > MAX_ALIAS_LENGTH) throw new BadInputError(`${param} is longer than ${MAX_ALIAS_LENGTH} characters`);
  return value;
}

export function parseRequiredAlias(value: unknown, param: string): string {
  const alias = parseOptionalAlias(value, param);
  if (alias === null) throw new BadInputError(`${param} is required`);
  return alias;
}

/** The starting sequence of an import: a non-negative integer that still leaves room for `seq + 1`. */
export function parseSeq(value: unknown, param: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value >= Number.MAX_SAFE_INTEGER) {
    throw new BadInputError(`${param} must be a non-negative integer`);
  }
  return value;
}

export interface Page {
  limit: number;
  start: number;
}

export const MAX_PAGE_LIMIT = 1000;

/** Spec: `limit` defaults to 10 and `start` to 0. */
export function parsePage(page: { limit?: unknown; start?: unknown }): Page {
  const limit = page.limit ?? 10;
  const start = page.start ?? 0;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    throw new BadInputError(`limit must be an integer from 1 to ${MAX_PAGE_LIMIT}`);
  }
  if (typeof start !== 'number' || !Number.isSafeInteger(start) || start < 0) throw new BadInputError('start must be a non-negative integer');
  return { limit, start };
}
