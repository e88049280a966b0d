import type { CID } from 'multiformats/cid';
import type { ResolvedPath } from '../../content/read/resolve-path.js';
import type { GatewayContext } from './types.js';

export const IMMUTABLE = 'public, max-age=29030400, immutable';
/** A year: a record TTL beyond it (the fixtures use 100 years) is capped so caches revalidate eventually. */
const MAX_TTL_SECONDS = 29030400;
/** Bumped whenever the generated HTML changes, so caches of listings are told apart (Etag DirIndex-/DagIndex-). */
export const HTML_VERSION = 'pinfold2';

/** `inline; filename="x"` with an ASCII fallback (one "_" per non-ASCII character) and RFC 5987 `filename*`. */
export function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const ascii = [...filename]
    .map((ch) => (/^[\x20-\x7e]$/.test(ch) ? ch : '_'))
    .join('')
    .replace(/["\\]/g, '\\$&');
  let value = `${kind}; filename="${ascii}"`;
  if (!/^[\x20-\x7e]*$/.test(filename)) {
    const encoded = encodeURIComponent(filename).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
    value += `; filename*=UTF-8''${encoded}`;
  }
  return value;
}

/** If-None-Match against our Etag, weak comparison (W/ ignored), "*" matches anything. */
export function etagMatches(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const header = Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : ifNoneMatch;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  const ours = bare(etag);
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === ours);
}

export interface CacheOptions {
  etag: string;
  /** Content addressed by CID (immutable on /ipfs); false for generated HTML. */
  immutable: boolean;
  /** Roots to report; defaults to every resolved segment. */
  roots?: string[];
}

/**
 * A file's Etag, `"<cid>"`, made once per CID object (cached resolutions hand the same one back): a string
 * built per response is a new concatenation that Node's header check has to flatten each time.
 */
const fileEtags = new WeakMap<CID, string>();
export function fileEtag(cid: CID): string {
  let etag = fileEtags.get(cid);
  if (etag === undefined) {
    etag = `"${cid.toString()}"`;
    fileEtags.set(cid, etag);
  }
  return etag;
}

/** X-Ipfs-Roots of a resolution, made once: a resolved path is reused (resolution-cache.ts) and never changed. */
const rootsHeaders = new WeakMap<ResolvedPath, string>();
function rootsHeader(resolved: ResolvedPath): string {
  let header = rootsHeaders.get(resolved);
  if (header === undefined) {
    header = resolved.roots.map(String).join(',');
    rootsHeaders.set(resolved, header);
  }
  return header;
}

/** Etag, X-Ipfs-Path, X-Ipfs-Roots and Cache-Control, common to every 200/206/304 of the gateway. */
export function setCacheHeaders(ctx: GatewayContext, options: CacheOptions): void {
  const { reply } = ctx;
  reply.header('etag', options.etag);
  reply.header('x-ipfs-path', ctx.target.rawPath);
  reply.header('x-ipfs-roots', options.roots ? options.roots.join(',') : rootsHeader(ctx.resolved));
  if (ctx.target.namespace === 'ipns') {
    if (ctx.ttlSeconds !== undefined && ctx.ttlSeconds > 0) {
      reply.header('cache-control', `public, max-age=${Math.min(Math.floor(ctx.ttlSeconds), MAX_TTL_SECONDS)}`);
    }
  } else if (options.immutable) {
    reply.header('cache-control', IMMUTABLE);
  }
}

/** Answers 304 when the client already has this Etag; returns true when it did. */
export function replyNotModified(ctx: GatewayContext): boolean {
  const etag = ctx.reply.getHeader('etag');
  if (typeof etag !== 'string' || !etagMatches(ctx.request.headers['if-none-match'], etag)) return false;
  void ctx.reply.code(304).send();
  return true;
}
