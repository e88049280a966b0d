import { BadInputError } from '../../base/errors.js';
import { validateSegments } from '../../content/read/resolve-path.js';

/** A gateway request URL taken apart. */
export interface RequestTarget {
  namespace: 'ipfs' | 'ipns';
  /** The CID or name as written. */
  rootText: string;
  /** Percent-decoded path segments after the root. */
  segments: string[];
  trailingSlash: boolean;
  /** The path exactly as sent (still percent-encoded), for X-Ipfs-Path. */
  rawPath: string;
  /** The query string with its "?", or "". */
  search: string;
  query: URLSearchParams;
}

/**
 * Parses `/ipfs/<cid>[/<path>]` or `/ipns/<name>[/<path>]` from the raw request URL (Fastify's decoded
 * params would lose the difference between "%2F" and "/"). Malformed escapes, empty segments, ".", ".."
 * and NUL are a BadInputError.
 */
export function parseRequestTarget(url: string): RequestTarget {
  const queryAt = url.indexOf('?');
  const rawPath = queryAt === -1 ? url : url.slice(0, queryAt);
  const search = queryAt === -1 ? '' : url.slice(queryAt);
  const match = /^\/(ipfs|ipns)\/(.*)$/s.exec(rawPath);
  if (match === null) throw new BadInputError('path: must start with /ipfs/ or /ipns/');
  const namespace = match[1] === 'ipns' ? 'ipns' : 'ipfs';
  const parts = (match[2] ?? '').split('/');
  const trailingSlash = parts.length > 1 && parts[parts.length - 1] === '';
  if (trailingSlash) parts.pop();
  const decoded = parts.map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      throw new BadInputError(`path: "${part}" is not valid percent-encoding`);
    }
  });
  const [rootText, ...segments] = decoded;
  if (rootText === undefined || rootText === '') throw new BadInputError(`path: ${namespace === 'ipfs' ? 'cid' : 'name'} is missing`);
  validateSegments(segments);
  return {
    namespace,
    rootText,
    segments,
    trailingSlash,
    rawPath,
    search,
    query: new URLSearchParams(search),
  };
}

/** Percent-encodes one path segment, leaving the sub-delimiters a path may carry literally ("+", "=", ","...). */
export function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/%(24|26|2B|2C|3B|3D|3A|40)/gi, (escape) => decodeURIComponent(escape));
}

export function encodePath(namespace: string, rootText: string, segments: readonly string[]): string {
  return `/${namespace}/${[encodeSegment(rootText), ...segments.map(encodeSegment)].join('/')}`;
}
