import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The `X-Access-Signature` mode (contract section 2): HMAC-SHA256 keyed with the decoded secret over
 * `METHOD\npath\nquery`, path as sent, query re-rendered by URLSearchParams in the order sent; the
 * same with the parameters sorted by name is accepted too.
 */
export function canonicalStrings(method: string, rawUrl: string): string[] {
  const q = rawUrl.indexOf('?');
  const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const params = new URLSearchParams(q === -1 ? '' : rawUrl.slice(q + 1));
  const asSent = params.toString();
  const sorted = new URLSearchParams([...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))).toString();
  const head = `${method.toUpperCase()}\n${path}\n`;
  return asSent === sorted ? [head + asSent] : [head + asSent, head + sorted];
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
