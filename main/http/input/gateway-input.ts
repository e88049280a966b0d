import { check, object, picklist, pipe, rawTransform, transform, unknown, type GenericSchema, type InferOutput } from 'valibot';
import { BadInputError } from '../../base/errors.js';
import type { DagScope, EntityBytes } from '../../content/read/export-car.js';
import { field, parsedTogether } from './fields.js';
import { requestInput } from './request-input.js';

/**
 * The request schema of the gateway's query parameters (contract section 5; the trustless gateway and
 * IPIP-0523 name them): the response format, the CAR parameters, the download name. What a parameter means
 * beside the `Accept` header it may stand in for (`format`, `car-version`, `car-order`, `car-dups`) is
 * gateway/negotiate.ts's to decide. The path (`/ipfs/<cid>/<path>`) is read from the raw URL, not here
 * (gateway/request-target.ts).
 */

export const RESPONSE_FORMATS = ['raw', 'car', 'tar', 'dag-json', 'dag-cbor', 'json', 'cbor', 'ipns-record'] as const;
export type ResponseFormat = (typeof RESPONSE_FORMATS)[number];

const isResponseFormat = (value: string): value is ResponseFormat => (RESPONSE_FORMATS as readonly string[]).includes(value);

/** The parameters the gateway reads; every other one is left alone. */
const GATEWAY_PARAMETERS = ['format', 'car-version', 'car-order', 'car-dups', 'dag-scope', 'entity-bytes', 'filename', 'download'] as const;

/** A parameter as URLSearchParams reads it: its first value, undefined when absent. */
const text = field(
  pipe(
    unknown(),
    transform((value) => (typeof value === 'string' ? value : undefined)),
  ),
);

/** `format`: one of the response formats; absent or empty leaves the format to `Accept`. */
const format = pipe(
  text,
  rawTransform<string | undefined, ResponseFormat | null>(({ dataset, addIssue, NEVER }) => {
    const given = dataset.value;
    if (given === undefined || given === '') return null;
    if (isResponseFormat(given)) return given;
    addIssue({ message: `format: "${given}" is not one of ${RESPONSE_FORMATS.join(', ')}` });
    return NEVER;
  }),
);

/** `car-dups`: `y` or `n` when given (the Accept entry's `dups` may stand in: negotiate.ts). */
const carDups = pipe(
  text,
  check((value) => value === undefined || value === 'y' || value === 'n', 'car-dups: must be "y" or "n"'),
  transform((value) => (value === undefined ? undefined : value === 'y')),
);

const dagScope: GenericSchema<unknown, DagScope> = pipe(
  text,
  transform((value) => value ?? 'all'),
  picklist(['all', 'entity', 'block'] as const, 'dag-scope: must be all, entity or block'),
);

const filename = pipe(
  text,
  check((value) => value === undefined || (value !== '' && !/[\0\r\n]/.test(value)), 'filename: must be a non-empty single line'),
);

/** `entity-bytes=from:to` ("to" may be `*`), only beside `dag-scope=entity`. */
function entityBytesOf(value: string | undefined, scope: DagScope): EntityBytes | undefined {
  if (value === undefined) return undefined;
  if (scope !== 'entity') throw new BadInputError('entity-bytes: only allowed with dag-scope=entity', 'entity-bytes');
  const match = /^(-?\d+):(-?\d+|\*)$/.exec(value);
  if (match === null) throw new BadInputError('entity-bytes: must be "from:to" (integers, "to" may be "*")', 'entity-bytes');
  const from = Number(match[1]);
  const to = match[2] === '*' ? null : Number(match[2]);
  if (to !== null && from >= 0 && to >= 0 && to < from) throw new BadInputError('entity-bytes: "to" is before "from"', 'entity-bytes');
  return { from, to };
}

export const GatewayQuery = pipe(
  object({
    format,
    'car-version': text,
    'car-order': text,
    'car-dups': carDups,
    'dag-scope': dagScope,
    'entity-bytes': text,
    filename,
    download: pipe(
      text,
      transform((value) => value === 'true'),
    ),
  }),
  parsedTogether((query) => ({ ...query, 'entity-bytes': entityBytesOf(query['entity-bytes'], query['dag-scope']) })),
);

export type GatewayQueryParams = InferOutput<typeof GatewayQuery>;

/** What a query without any of the gateway's parameters reads as (shared, hence frozen). */
const NO_PARAMETERS: GatewayQueryParams = Object.freeze({
  format: null,
  'car-version': undefined,
  'car-order': undefined,
  'car-dups': undefined,
  'dag-scope': 'all',
  'entity-bytes': undefined,
  filename: undefined,
  download: false,
});

/** A query string with nothing but `ts` (or nothing): most scripted requests, read without a parse. */
const NO_GATEWAY_QUERY = /^(\?(ts=\d*)?)?$/;

/**
 * The gateway's parameters of a query string (`search`, with its "?"), through their schema. A repeated one
 * is read as its first value, as the gateway always did.
 */
export function gatewayQuery(search: string): GatewayQueryParams {
  if (NO_GATEWAY_QUERY.test(search)) return NO_PARAMETERS;
  const params = new URLSearchParams(search);
  const given: Record<string, string> = {};
  for (const name of GATEWAY_PARAMETERS) {
    const value = params.get(name);
    if (value !== null) given[name] = value;
  }
  return requestInput(GatewayQuery, given);
}
