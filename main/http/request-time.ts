import { BadInputError, UnauthorizedError } from '../base/errors.js';

/**
 * `ts` is required on every operation but the plan list and step 2 of uploads: missing or not an
 * integer is 400, further than the window from the server clock is 401 (a stale request may be a replay).
 */
export function checkRequestTime(ts: string | undefined, nowSeconds: number, windowSeconds: number): void {
  if (ts === undefined || ts === '') throw new BadInputError('ts is required (Unix time in seconds)');
  if (!/^-?\d{1,15}$/.test(ts)) throw new BadInputError('ts must be an integer (Unix time in seconds)');
  if (Math.abs(Number(ts) - nowSeconds) > windowSeconds) throw new UnauthorizedError(`ts is more than ${windowSeconds} s away from the server clock`);
}

/**
 * The `ts` query parameter. Every authenticated request pays for this, so a plain `ts=<digits>` is read in
 * place; anything else (escapes, `+`, a repeated or empty ts) goes through URLSearchParams, whose answer
 * (the first `ts`) the fast path gives too.
 */
export function queryTs(rawUrl: string): string | undefined {
  const q = rawUrl.indexOf('?');
  if (q === -1) return undefined;
  const at = rawUrl.startsWith('ts=', q + 1) ? q + 1 : rawUrl.indexOf('&ts=', q) + 1;
  if (at > 0) {
    let end = at + 3;
    while (end < rawUrl.length && rawUrl.charCodeAt(end) >= 48 && rawUrl.charCodeAt(end) <= 57) end++;
    const next = end === rawUrl.length ? -1 : rawUrl.charCodeAt(end);
    // Digits up to the next parameter (or the end), and nothing before it that could also decode to `ts`.
    if (end > at + 3 && (next === -1 || next === 38) && !rawUrl.slice(q, at).includes('%')) return rawUrl.slice(at + 3, end);
  }
  return new URLSearchParams(rawUrl.slice(q + 1)).get('ts') ?? undefined;
}
