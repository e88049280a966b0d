import { BadInputError, NotAcceptableError } from '../../base/errors.js';
import type { DagScope, EntityBytes } from '../../content/read/export-car.js';
import { gatewayQuery, type ResponseFormat } from '../input/gateway-input.js';

export type { ResponseFormat };

const byMediaType: Record<string, ResponseFormat> = {
  'application/vnd.ipld.raw': 'raw',
  'application/vnd.ipld.car': 'car',
  'application/x-tar': 'tar',
  'application/vnd.ipld.dag-json': 'dag-json',
  'application/vnd.ipld.dag-cbor': 'dag-cbor',
  'application/json': 'json',
  'application/cbor': 'cbor',
  'application/vnd.ipfs.ipns-record': 'ipns-record',
};

export interface CarParams {
  dups: boolean;
  scope: DagScope;
  entityBytes?: EntityBytes;
}

export interface FormatChoice {
  /** The explicit response format, or null for the content's own (file bytes, listing, block as-is). */
  format: ResponseFormat | null;
  /** The client prefers HTML (a browser): dag-json/dag-cbor then get an HTML preview. */
  wantsHtml: boolean;
  car: CarParams;
  filename?: string;
  download: boolean;
}

interface MediaRange {
  type: string;
  params: Map<string, string>;
  q: number;
}

export function parseAccept(header: string | undefined): MediaRange[] {
  if (header === undefined || header.trim() === '') return [];
  const ranges = header.split(',').map((part, index) => {
    const [type = '', ...rawParams] = part.split(';').map((s) => s.trim());
    const params = new Map<string, string>();
    for (const param of rawParams) {
      const eq = param.indexOf('=');
      if (eq > 0)
        params.set(
          param.slice(0, eq).trim().toLowerCase(),
          param
            .slice(eq + 1)
            .trim()
            .replace(/^"|"$/g, ''),
        );
    }
    const q = Number(params.get('q') ?? '1');
    return { type: type.toLowerCase(), params, q: Number.isFinite(q) ? q : 0, index };
  });
  // Highest q first; equal q keeps the client's order.
  return ranges.filter((r) => r.q > 0).sort((a, b) => b.q - a.q || a.index - b.index);
}

function yesNo(value: string, name: string): boolean {
  if (value === 'y') return true;
  if (value === 'n') return false;
  throw new BadInputError(`${name}: must be "y" or "n"`);
}

/**
 * What a request with no Accept and no query parameter but `ts` gets: the content in its own format. Most
 * scripted requests look like this, and it saves parsing a query that holds nothing about the format.
 * Shared by those requests, hence frozen.
 */
const CONTENT_AS_IS: FormatChoice = Object.freeze({
  format: null,
  wantsHtml: false,
  car: Object.freeze({ dups: false, scope: 'all' as const }),
  download: false,
});
const NO_FORMAT_QUERY = /^(\?(ts=\d*)?)?$/;

/**
 * Picks the response format from the query string (`search`, with its "?"; its parameters read through their
 * schema, input/gateway-input.ts) and Accept. `?format=` wins over `Accept` (IPIP-0523). CAR parameters come
 * from the Accept entry for application/vnd.ipld.car, and `car-version`/`car-order`/`car-dups` URL parameters
 * beat them.
 */
export function chooseFormat(search: string, accept: string | undefined, namespace: 'ipfs' | 'ipns'): FormatChoice {
  if ((accept === undefined || accept.trim() === '') && NO_FORMAT_QUERY.test(search)) return CONTENT_AS_IS;
  const query = gatewayQuery(search);
  const ranges = parseAccept(accept);
  let format: ResponseFormat | null = query.format;
  if (format === null) {
    for (const range of ranges) {
      const found = byMediaType[range.type];
      if (found !== undefined) {
        format = found;
        break;
      }
    }
  }
  if (format === 'ipns-record' && namespace !== 'ipns') throw new BadInputError('format: ipns-record is only for /ipns/ paths');

  const carAccept = ranges.find((r) => r.type === 'application/vnd.ipld.car')?.params ?? new Map<string, string>();
  const version = query['car-version'] ?? carAccept.get('version') ?? '1';
  if (format === 'car' && version !== '1') throw new NotAcceptableError(`car-version: only version 1 is served, not "${version}"`);
  const order = query['car-order'] ?? carAccept.get('order') ?? 'dfs';
  if (format === 'car' && order !== 'dfs' && order !== 'unk') throw new BadInputError(`car-order: "${order}" is not dfs or unk`);
  const dups = query['car-dups'] ?? yesNo(carAccept.get('dups') ?? 'n', 'car-dups');
  const car: CarParams = { dups, scope: query['dag-scope'] };
  if (query['entity-bytes'] !== undefined) car.entityBytes = query['entity-bytes'];
  const wantsHtml = ranges[0]?.type === 'text/html';
  return { format, wantsHtml, car, filename: query.filename, download: query.download };
}
