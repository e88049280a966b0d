import { createHmac, timingSafeEqual } from 'node:crypto';
import { signedPathForms } from './signed-path.js';

/**
 * The `X-Access-Signature` mode (contract section 2): HMAC-SHA256 keyed with the decoded secret over
 * `METHOD\npath\nquery`. The path may be signed in any form of {@link signedPathForms} (as sent,
 * canonical, canonical decoded); the query is re-rendered by URLSearchParams in the order sent, and the
 * same with the parameters sorted by name is accepted too. The first string is always the path and
 * query as sent. Identical candidates are listed once, so a plain API path costs one or two HMACs.
 */
export function canonicalStrings(method: string, rawUrl: string): string[] {
  const q = rawUrl.indexOf('?');
  const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const params = new URLSearchParams(q === -1 ? '' : rawUrl.slice(q + 1));
  const asSent = params.toString();
  const sorted = new URLSearchParams([...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))).toString();
  const queries = asSent === sorted ? [asSent] : [asSent, sorted];
  const upper = method.toUpperCase();
  const strings: string[] = [];
  for (const form of signedPathForms(path)) for (const query of queries) strings.push(`${upper}\n${form}\n${query}`);
  return strings;
}

export function sign(hmacKey: Buffer, canonical: string): string {
  return createHmac('sha256', hmacKey).update(canonical, 'utf8').digest('base64url');
}

/** Accepts base64url or standard base64, with or without padding. */
function normalize(signature: string): string {
  return signature.trim().replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

export function signatureMatches(hmacKey: Buffer, method: string, rawUrl: string, presented: string): boolean {
  const given = Buffer.from(normalize(presented), 'utf8');
  let ok = false;
  for (const canonical of canonicalStrings(method, rawUrl)) {
    const expected = Buffer.from(sign(hmacKey, canonical), 'utf8');
    // Evaluate every candidate so the time taken does not say which form matched.
    if (expected.length === given.length && timingSafeEqual(expected, given)) ok = true;
  }
  return ok;
}
