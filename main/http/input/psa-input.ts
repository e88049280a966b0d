import {
  array,
  check,
  custom,
  maxEntries,
  maxLength,
  nullable,
  object,
  picklist,
  pipe,
  rawTransform,
  string,
  transform,
  unknown,
  type GenericSchema,
} from 'valibot';
import { keptOrigins } from '../../pins/http-multiaddr.js';
import { cidSpellings } from '../../pins/pin-list.js';
import type { PsaListQuery, PsaPinRequest } from '../../pins/psa-pins.js';
import { PSA_STATUSES, type PsaStatus } from '../../pins/psa-status.js';
import type { NameMatch } from '../../store/repositories/pins.js';
import { parseCidParam } from '../cid-param.js';
import { field, onceQueryText, parsedBy } from './fields.js';
import { cidField, PinName } from './pin-input.js';

/**
 * The request schemas of the IPFS Pinning Service API 1.0.0 (`/psa`), into what the pins domain takes. Lists
 * arrive comma-separated (the spec's `style: form`, `explode: false`) or repeated; `meta` as the spec's JSON
 * object (`?meta={"app_id":"…"}`) or as the generated JS client sends an object (`?meta[app_id]=…`).
 */

/** The spec's bounds: `Origins` maxItems, the `cid` filter's maxItems, `PinMeta` maxProperties, `limit`. */
const MAX_ORIGINS = 20;
const MAX_CID_FILTER = 10;
const MAX_META_ENTRIES = 1000;
/** Ours: a pin's meta is kept with it, and a filter is matched against every pin of a list. */
const MAX_META_JSON = 16 * 1024;
const MAX_MULTIADDR = 1024;
const NAME_MATCHES: readonly NameMatch[] = ['exact', 'iexact', 'partial', 'ipartial'];

const isMultiaddrText = (item: unknown): item is string => typeof item === 'string' && item.length <= MAX_MULTIADDR;

/** `origins` of a Pin: at most 20 multiaddr strings, of which only HTTP(S) servers are kept (contract section 11). */
const origins = pipe(
  array(unknown(), 'origins must be an array of multiaddrs'),
  maxLength(MAX_ORIGINS, `origins must hold at most ${MAX_ORIGINS} multiaddrs`),
  check((items) => items.every(isMultiaddrText), `origins must be multiaddr strings of at most ${MAX_MULTIADDR} characters`),
  // The others can be nothing Pinfold fetches from: ignored, not refused.
  transform((items) => keptOrigins(items.filter(isMultiaddrText))),
);

/** A pin's meta: an object of at most 1000 strings, at most 16 KiB as JSON. */
const meta = pipe(
  custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'meta must be an object of strings'),
  maxEntries(MAX_META_ENTRIES, `meta must hold at most ${MAX_META_ENTRIES} entries`),
  rawTransform<Record<string, unknown>, Record<string, string>>(({ dataset, addIssue, NEVER }) => {
    const strings: Record<string, string> = {};
    for (const [key, item] of Object.entries(dataset.value)) {
      if (typeof item !== 'string') {
        addIssue({ message: `meta.${key.slice(0, 100)} must be a string` });
        return NEVER;
      }
      strings[key] = item;
    }
    return strings;
  }),
  check((strings) => JSON.stringify(strings).length <= MAX_META_JSON, `meta must be at most ${MAX_META_JSON} characters as JSON`),
);

/** A `Pin` object (the body of `POST /pins` and `POST /pins/{requestid}`); absent parts are null. */
export const PsaPinBody: GenericSchema<unknown, PsaPinRequest> = object({
  cid: cidField('cid'),
  name: field(nullable(PinName)),
  meta: field(nullable(meta)),
  origins: field(nullable(origins)),
});

/** `{requestid}` of `/pins/{requestid}`: the request id a pin was answered with. */
export const PsaRequestParams = object({ requestid: field(string('requestid is required')) });

/** A list parameter's items: comma-separated, repeated, or both; null when absent or empty. */
const listParam = (parameter: string): GenericSchema<unknown, string[] | null> =>
  field(
    pipe(
      unknown(),
      transform((value) => (value === null || value === '' ? undefined : value)),
      transform((value) => (value === undefined ? [] : Array.isArray(value) ? (value as unknown[]) : [value])),
      check((values) => values.every((item) => typeof item === 'string'), `${parameter} must be a comma-separated list`),
      transform((values) => {
        const items = values.flatMap((item) => String(item).split(',')).filter((item) => item !== '');
        return items.length === 0 ? null : [...new Set(items)];
      }),
    ),
  );

const isPsaStatus = (item: string): item is PsaStatus => (PSA_STATUSES as readonly string[]).includes(item);

const statusFilter = pipe(
  listParam('status'),
  check((items) => items === null || items.every(isPsaStatus), `status must be a comma-separated list of ${PSA_STATUSES.join(', ')}`),
  transform((items) => (items === null ? null : items.filter(isPsaStatus))),
);

const cidFilter = pipe(
  listParam('cid'),
  check((items) => items === null || items.length <= MAX_CID_FILTER, `cid must name at most ${MAX_CID_FILTER} CIDs`),
  parsedBy((items: string[] | null) => (items === null ? null : [...new Set(items.flatMap((item) => cidSpellings(parseCidParam(item, 'cid'))))])),
);

/** `match`: how `name` matches (default `exact`); checked whether or not a name is given. */
const nameMatch = pipe(
  onceQueryText('match must be given once'),
  transform((value) => value ?? 'exact'),
  picklist(NAME_MATCHES, `match must be one of ${NAME_MATCHES.join(', ')}`),
);

/** `name`: a pin's name to look for, in a pin name's bounds; absent or empty is no name filter. */
const nameFilter = field(
  pipe(
    unknown(),
    custom<unknown>((value) => value === undefined || value === null || typeof value === 'string', 'name must be given once'),
    PinName,
    transform((text) => (text === '' ? null : text)),
  ),
);

const RFC_3339 = /^(\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * An RFC 3339 date-time (the spec's `format: date-time`), as whole milliseconds and whether a fraction of one
 * was left over: `before` then also takes the pin of that very millisecond, since it was created before the
 * time given. Null when absent or empty.
 */
const time = (parameter: string): GenericSchema<unknown, { ms: number; rest: boolean } | null> =>
  pipe(
    onceQueryText(`${parameter} must be given once`),
    rawTransform<string | undefined, { ms: number; rest: boolean } | null>(({ dataset, addIssue, NEVER }) => {
      const text = dataset.value;
      if (text === undefined || text === '') return null;
      const match = RFC_3339.exec(text);
      const wholeSecondMs = match ? Date.parse(`${(match[1] as string).replace(/[t ]/, 'T')}${(match[3] as string).toUpperCase()}`) : NaN;
      if (!match || Number.isNaN(wholeSecondMs)) {
        addIssue({ message: `${parameter} must be an RFC 3339 date-time, e.g. 2026-11-28T03:34:56Z` });
        return NEVER;
      }
      const fraction = (match[2] ?? '').padEnd(9, '0');
      return { ms: wholeSecondMs + Number(fraction.slice(0, 3)), rest: Number(fraction.slice(3)) > 0 };
    }),
  );

/** What a list's `meta` filter is read from: the `meta` parameter as given and the `meta[key]` pairs (null: none). */
interface MetaFilterInput {
  json: unknown;
  pairs: Record<string, unknown> | null;
}

/** The `meta[key]=value` pairs of a query, by their full key, or null when there are none. */
function bracketedMeta(query: Record<string, unknown>): Record<string, unknown> | null {
  const keys = Object.keys(query).filter((key) => key.startsWith('meta[') && key.endsWith(']'));
  return keys.length === 0 ? null : Object.fromEntries(keys.map((key) => [key, query[key]]));
}

/** `meta={"k":"v"}`, or the `meta[k]=v` pairs the generated JS client sends for an object; null when neither. */
const metaFilter = pipe(
  custom<MetaFilterInput>(() => true),
  check(({ json }) => json === undefined || json === null || typeof json === 'string', 'meta must be given once'),
  check(({ json, pairs }) => typeof json !== 'string' || json === '' || pairs === null, 'meta must be given one way: as a JSON object or as meta[key]=value'),
  rawTransform<MetaFilterInput, unknown>(({ dataset, addIssue, NEVER }) => {
    const { json, pairs } = dataset.value;
    if (typeof json === 'string' && json !== '') {
      try {
        return JSON.parse(json) as unknown;
      } catch {
        addIssue({ message: 'meta must be a JSON object of strings' });
        return NEVER;
      }
    }
    if (pairs === null) return null;
    const given: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(pairs)) {
      if (typeof value !== 'string') {
        addIssue({ message: `${key} must be given once` });
        return NEVER;
      }
      given[key.slice('meta['.length, -1)] = value;
    }
    return given;
  }),
  nullable(meta),
);

const limit = pipe(
  onceQueryText('limit must be given once'),
  check(
    (text) => text === undefined || text === '' || (/^\d{1,4}$/.test(text) && Number(text) >= 1 && Number(text) <= 1000),
    'limit must be an integer from 1 to 1000',
  ),
  transform((text) => (text === undefined || text === '' ? 10 : Number(text))),
);

/**
 * The query of `GET /pins`, its parameters checked in this order. The spec: "when no filter is provided, only
 * successful pins are returned"; with any filter but no `status`, pins of every status match (the compliance
 * suite finds a new, `queued` pin by its name).
 */
export const PsaListQuerySchema: GenericSchema<unknown, PsaListQuery> = pipe(
  custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null, 'the query must be an object'),
  transform((query) => ({ ...query, meta: { json: query.meta, pairs: bracketedMeta(query) } satisfies MetaFilterInput })),
  object({
    before: time('before'),
    after: time('after'),
    cid: cidFilter,
    match: nameMatch,
    name: nameFilter,
    meta: metaFilter,
    status: statusFilter,
    limit,
  }),
  transform((query): PsaListQuery => {
    const filters = {
      cids: query.cid,
      name: query.name === null ? null : { text: query.name, match: query.match },
      meta: query.meta,
      beforeMs: query.before === null ? null : query.before.ms + (query.before.rest ? 1 : 0),
      afterMs: query.after === null ? null : query.after.ms,
    };
    const filtered = Object.values(filters).some((filter) => filter !== null);
    return { statuses: query.status ?? (filtered ? [...PSA_STATUSES] : ['pinned']), ...filters, limit: query.limit };
  }),
);
