import { PIN_STATUSES, type PinStatus } from '../../shared/api-types.js';
import { BadInputError } from '../base/errors.js';
import { cidSpellings, type PinListQuery } from '../pins/pin-list.js';
import type { Page } from '../pins/pins.js';
import type { PinFilter, PinPosition } from '../store/repositories/pins.js';
import { parseCidParam } from './cid-param.js';

/**
 * The request parameters of the pin routes (contract section 6 and the list's extensions), checked into
 * what the pins domain takes; each refusal is a 400 naming its parameter.
 */

const MAX_PIN_NAME = 255;
const MAX_NAME_FILTER = 255;

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

export function parseStatus(value: unknown): PinStatus | null {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string' || !PIN_STATUSES.includes(value as PinStatus)) throw new BadInputError(`status must be one of ${PIN_STATUSES.join(', ')}`);
  return value as PinStatus;
}

function parseNameFilter(value: unknown): string | null {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string') throw new BadInputError('name must be one text to search pin names for');
  if (value.length > MAX_NAME_FILTER) throw new BadInputError(`name must be 1 to ${MAX_NAME_FILTER} characters`);
  return value.toLowerCase();
}

function parseCidFilter(value: unknown): string[] | null {
  if (value === undefined || value === '') return null;
  return cidSpellings(parseCidParam(value, 'cid'));
}

/** A cursor: the base64url text of a pin's position, opaque to clients. */
export function encodeCursor(row: PinPosition): string {
  return Buffer.from(`${row.createdAt}.${row.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(value: unknown, parameter: string): PinPosition {
  const invalid = new BadInputError(`${parameter} is not a cursor of this list (use next or prev of a previous answer)`);
  if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(value)) throw invalid;
  const match = /^(\d{1,15})\.(\d{1,15})$/.exec(Buffer.from(value, 'base64url').toString('utf8'));
  if (!match) throw invalid;
  return { createdAt: Number(match[1]), id: Number(match[2]) };
}

export function parsePinListQuery(query: Record<string, unknown>): PinListQuery {
  const filter: PinFilter = { status: parseStatus(query.status), nameLower: parseNameFilter(query.name), cids: parseCidFilter(query.cid) };
  const { limit, start } = parsePage(query);
  const hasAfter = query.after !== undefined && query.after !== '';
  const hasBefore = query.before !== undefined && query.before !== '';
  if (hasAfter && hasBefore) throw new BadInputError('after and before cannot be used together');
  if ((hasAfter || hasBefore) && query.start !== undefined && query.start !== '') throw new BadInputError('start cannot be used with after or before');
  return {
    filter,
    limit,
    start,
    ...(hasAfter ? { after: decodeCursor(query.after, 'after') } : {}),
    ...(hasBefore ? { before: decodeCursor(query.before, 'before') } : {}),
  };
}
