import type { FormatChoice } from './negotiate.js';
import type { RequestTarget } from './request-target.js';

/**
 * What the dispatcher derives from a request's target before it reads anything, as plain functions:
 * which way the request goes, where a name's canonical form lives and under which key its resolution is
 * cached.
 */

/**
 * The common case, served without a name or a store probe first: an immutable `/ipfs` path, resolved once
 * while its blocks are held (resolution-cache.ts).
 */
export function isImmutableRequest(target: RequestTarget, choice: FormatChoice, onlyIfCached: boolean): boolean {
  return target.namespace === 'ipfs' && !onlyIfCached && choice.format !== 'ipns-record';
}

/** The same request under a name's canonical form (`canonical`), the rest of the path and the query kept as sent. */
export function canonicalLocation(target: RequestTarget, canonical: string): string {
  const rest = target.rawPath.slice(`/ipns/${target.rootText}`.length);
  return `/ipns/${canonical}${rest}${target.search}`;
}

/**
 * What a name points at is immutable content: its resolution is cached like an /ipfs path's, under the
 * content's own key (`nameKey`, the name's answer: a publish hands the name a new answer, hence a new key).
 * Without a name the key is the path's own.
 */
export function resolutionKey(target: RequestTarget, nameKey: string | undefined): string {
  if (nameKey === undefined) return target.key;
  return target.segments.length === 0 ? nameKey : `${nameKey}/${target.segments.join('/')}`;
}
