import { BadInputError } from '../base/errors.js';
import { keptOrigins } from '../pins/http-multiaddr.js';
import { cidSpellings } from '../pins/pin-list.js';
import type { PsaListQuery, PsaPinRequest } from '../pins/psa-pins.js';
import { PSA_STATUSES, type PsaStatus } from '../pins/psa-status.js';
import type { NameMatch } from '../store/repositories/pins.js';
import { parseCidParam } from './cid-param.js';
import { parsePinName } from './pin-params.js';

/**
 * The request parameters of the IPFS Pinning Service API 1.0.0 (`/psa`), checked into what the pins domain
 * takes; each refusal is a 400 naming its parameter. Lists arrive comma-separated (the spec's `style: form`,
 * `explode: false`) or repeated; `meta` as the spec's JSON object (`?meta={"app_id":"…"}`) or as the generated
 * JS client sends an object (`?meta[app_id]=…`).
 */

/** The spec's bounds: `Origins` maxItems, the `cid` filter's maxItems, `PinMeta` maxProperties, `limit`. */
const MAX_ORIGINS = 20;
const MAX_CID_FILTER = 10;
const MAX_META_ENTRIES = 1000;
/** Ours: a pin's meta is kept with it, and a filter is matched against every pin of a list. */
const MAX_META_JSON = 16 * 1024;
const MAX_MULTIADDR = 1024;
const NAME_MATCHES: readonly NameMatch[] = ['exact', 'iexact', 'partial', 'ipartial'];

type Query = Record<string, unknown>;

/** A `Pin` object (the body of `POST /pins` and `POST /pins/{requestid}`). */
export function parsePsaPin(body: Record<string, unknown>): PsaPinRequest {
  return {
    cid: parseCidParam(body.cid, 'cid'),
    name: body.name === undefined || body.name === null ? null : parsePinName(body.name),
    meta: body.meta === undefined || body.meta === null ? null : parseMeta(body.meta, 'meta'),
    origins: body.origins === undefined || body.origins === null ? null : parseOrigins(body.origins),
  };
}

function parseOrigins(value: unknown): string[] {
  if (!Array.isArray(value)) throw new BadInputError('origins must be an array of multiaddrs');
  if (value.length > MAX_ORIGINS) throw new BadInputError(`origins must hold at most ${MAX_ORIGINS} multiaddrs`);
  for (const item of value) {
    if (typeof item !== 'string' || item.length > MAX_MULTIADDR)
      throw new BadInputError(`origins must be multiaddr strings of at most ${MAX_MULTIADDR} characters`);
  }
  // Only HTTP(S) servers can be fetched from (contract section 11): the others are ignored, not refused.
  return keptOrigins(value as string[]);
}

function parseMeta(value: unknown, parameter: string): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new BadInputError(`${parameter} must be an object of strings`);
  const entries = Object.entries(value);
  if (entries.length > MAX_META_ENTRIES) throw new BadInputError(`${parameter} must hold at most ${MAX_META_ENTRIES} entries`);
  const meta: Record<string, string> = {};
  for (const [key, item] of entries) {
    if (typeof item !== 'string') throw new BadInputError(`${parameter}.${key.slice(0, 100)} must be a string`);
    meta[key] = item;
  }
  if (JSON.stringify(meta).length > MAX_META_JSON) throw new BadInputError(`${parameter} must be at most ${MAX_META_JSON} characters as JSON`);
  return meta;
}

/** A list parameter's items: comma-separated, repeated, or both. Absent or empty: null. */
function listParam(value: unknown, parameter: string): string[] | null {
  if (value === undefined || value === '') return null;
  const values = Array.isArray(value) ? value : [value];
  if (!values.every((item): item is string => typeof item === 'string')) throw new BadInputError(`${parameter} must be a comma-separated list`);
  const items = values.flatMap((item) => item.split(',')).filter((item) => item !== '');
  return items.length === 0 ? null : [...new Set(items)];
}

function oneParam(value: unknown, parameter: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new BadInputError(`${parameter} must be given once`);
  return value;
}

function parseStatuses(value: unknown): PsaStatus[] | null {
  const items = listParam(value, 'status');
  if (items === null) return null;
  for (const item of items) {
    if (!PSA_STATUSES.includes(item as PsaStatus)) throw new BadInputError(`status must be a comma-separated list of ${PSA_STATUSES.join(', ')}`);
  }
  return items as PsaStatus[];
}

function parseCidFilter(value: unknown): string[] | null {
  const items = listParam(value, 'cid');
  if (items === null) return null;
  if (items.length > MAX_CID_FILTER) throw new BadInputError(`cid must name at most ${MAX_CID_FILTER} CIDs`);
  return [...new Set(items.flatMap((item) => cidSpellings(parseCidParam(item, 'cid'))))];
}

function parseNameFilter(query: Query): PsaListQuery['name'] {
  const match = oneParam(query.match, 'match') ?? 'exact';
  if (!NAME_MATCHES.includes(match as NameMatch)) throw new BadInputError(`match must be one of ${NAME_MATCHES.join(', ')}`);
  const text = oneParam(query.name, 'name');
  if (text === undefined || text === '') return null;
  return { text: parsePinName(text), match: match as NameMatch };
}

function parseLimit(value: unknown): number {
  const text = oneParam(value, 'limit');
  if (text === undefined || text === '') return 10;
  const limit = /^\d{1,4}$/.test(text) ? Number(text) : 0;
  if (limit < 1 || limit > 1000) throw new BadInputError('limit must be an integer from 1 to 1000');
  return limit;
}

/** `meta={"k":"v"}`, or the `meta[k]=v` pairs the generated JS client sends for an object. */
function parseMetaFilter(query: Query): Record<string, string> | null {
  const bracketed = Object.keys(query).filter((key) => key.startsWith('meta[') && key.endsWith(']'));
  const json = oneParam(query.meta, 'meta');
  if (json !== undefined && json !== '') {
    if (bracketed.length > 0) throw new BadInputError('meta must be given one way: as a JSON object or as meta[key]=value');
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch {
      throw new BadInputError('meta must be a JSON object of strings');
    }
    return parseMeta(parsed, 'meta');
  }
  if (bracketed.length === 0) return null;
  const pairs: Record<string, unknown> = {};
  for (const key of bracketed) pairs[key.slice('meta['.length, -1)] = oneParam(query[key], key);
  return parseMeta(pairs, 'meta');
}

const RFC_3339 = /^(\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * An RFC 3339 date-time (the spec's `format: date-time`), as whole milliseconds and whether a fraction of one
 * was left over: `before` then also takes the pin of that very millisecond, since it was created before the
 * time given.
 */
function parseTime(value: unknown, parameter: string): { ms: number; rest: boolean } | null {
  const text = oneParam(value, parameter);
  if (text === undefined || text === '') return null;
  const match = RFC_3339.exec(text);
  const wholeSecondMs = match ? Date.parse(`${(match[1] as string).replace(/[t ]/, 'T')}${(match[3] as string).toUpperCase()}`) : NaN;
  if (!match || Number.isNaN(wholeSecondMs)) throw new BadInputError(`${parameter} must be an RFC 3339 date-time, e.g. 2026-11-28T03:34:56Z`);
  const fraction = (match[2] ?? '').padEnd(9, '0');
  return { ms: wholeSecondMs + Number(fraction.slice(0, 3)), rest: Number(fraction.slice(3)) > 0 };
}

/**
 * The query of `GET /pins`. The spec: "when no filter is provided, only successful pins are returned"; with any
 * filter but no `status`, pins of every status match (the compliance suite finds a new, `queued` pin by its name).
 */
export function parsePsaListQuery(query: Query): PsaListQuery {
  const before = parseTime(query.before, 'before');
  const after = parseTime(query.after, 'after');
  const filters = {
    cids: parseCidFilter(query.cid),
    name: parseNameFilter(query),
    meta: parseMetaFilter(query),
    beforeMs: before === null ? null : before.ms + (before.rest ? 1 : 0),
    afterMs: after === null ? null : after.ms,
  };
  const statuses = parseStatuses(query.status);
  const filtered = Object.values(filters).some((filter) => filter !== null);
  return { statuses: statuses ?? (filtered ? [...PSA_STATUSES] : ['pinned']), ...filters, limit: parseLimit(query.limit) };
}
