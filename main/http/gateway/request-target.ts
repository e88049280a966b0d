import { BadInputError } from '../../base/errors.js';
import { validateSegments } from '../../content/read/resolve-path.js';

/** A gateway request path taken apart (shared by every request for the same path: never mutate it). */
export interface TargetPath {
  namespace: 'ipfs' | 'ipns';
  /** The CID or name as written. */
  rootText: string;
  /** Percent-decoded path segments after the root. */
  segments: readonly string[];
  trailingSlash: boolean;
  /** The path exactly as sent (still percent-encoded), for X-Ipfs-Path. */
  rawPath: string;
  /** The root and segments as one string: the key of the gateway's resolution cache. */
  key: string;
}

/** A gateway request URL taken apart. */
export interface RequestTarget extends TargetPath {
  /** The query string with its "?", or "". */
  search: string;
}

/**
 * Paths already taken apart, by raw path. A gateway is asked for the same paths over and over (a page's
 * assets, a listing's files, a script fetching the same file); each parse costs about a microsecond, a
 * lookup a tenth of that. Only paths that parsed are kept.
 */
const parsedPaths = new Map<string, TargetPath>();
const MAX_PARSED_PATHS = 4096;

/**
 * Parses `/ipfs/<cid>[/<path>]` or `/ipns/<name>[/<path>]` from the raw request URL (Fastify's decoded
 * params would lose the difference between "%2F" and "/"). Malformed escapes, empty segments, ".", ".."
 * and NUL are a BadInputError.
 */
export function parseRequestTarget(url: string): RequestTarget {
  const queryAt = url.indexOf('?');
  const rawPath = queryAt === -1 ? url : url.slice(0, queryAt);
  const search = queryAt === -1 ? '' : url.slice(queryAt);
  let path = parsedPaths.get(rawPath);
  if (path === undefined) {
    path = parsePath(rawPath);
    if (parsedPaths.size >= MAX_PARSED_PATHS) parsedPaths.delete(parsedPaths.keys().next().value as string);
    parsedPaths.set(rawPath, path);
  }
  return { ...path, search };
}

function parsePath(rawPath: string): TargetPath {
  const match = /^\/(ipfs|ipns)\/(.*)$/s.exec(rawPath);
  if (match === null) throw new BadInputError('path: must start with /ipfs/ or /ipns/');
  const namespace = match[1] === 'ipns' ? 'ipns' : 'ipfs';
  const parts = (match[2] ?? '').split('/');
  const trailingSlash = parts.length > 1 && parts[parts.length - 1] === '';
  if (trailingSlash) parts.pop();
  const decoded = parts.map((part) => {
    if (!part.includes('%')) return part;
    try {
      return decodeURIComponent(part);
    } catch {
      throw new BadInputError(`path: "${part}" is not valid percent-encoding`);
    }
  });
  const [rootText, ...segments] = decoded;
  if (rootText === undefined || rootText === '') throw new BadInputError(`path: ${namespace === 'ipfs' ? 'cid' : 'name'} is missing`);
  validateSegments(segments);
  Object.freeze(segments);
  // Segments cannot hold "/" (validateSegments), so joining them is unambiguous.
  const key = segments.length === 0 ? rootText : `${rootText}/${segments.join('/')}`;
  return Object.freeze({ namespace, rootText, segments, trailingSlash, rawPath, key });
}

/** Percent-encodes one path segment, leaving the sub-delimiters a path may carry literally ("+", "=", ","...). */
export function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/%(24|26|2B|2C|3B|3D|3A|40)/gi, (escape) => decodeURIComponent(escape));
}

export function encodePath(namespace: string, rootText: string, segments: readonly string[]): string {
  return `/${namespace}/${[encodeSegment(rootText), ...segments.map(encodeSegment)].join('/')}`;
}
