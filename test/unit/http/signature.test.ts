import { describe, expect, it } from 'vitest';
import { canonicalStrings, sign, signatureMatches } from '../../../main/http/signature.js';

/** Contract section 2, the worked example: secret bytes 0..47. */
const SECRET = 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4v';
const HMAC_KEY = Buffer.from(SECRET, 'base64url');
const URL_AS_SENT = '/api/v0/pin?ts=1700000000&start=0&limit=5';
const AS_SENT_SIG = 'PLRn96rH2vqsAPHIGY9wBDRtzC9iSrNfP1LHCo8YzSg=';
const SORTED_SIG = 'xS0J-JtpwmZ4_YTEcU5pP4zZ5mdCrdpFBCfUOo8qmFg=';

describe('X-Access-Signature (contract worked example)', () => {
  it('the secret is bytes 0..47', () => {
    expect([...HMAC_KEY]).toEqual(Array.from({ length: 48 }, (_, i) => i));
  });

  it('builds METHOD\\npath\\nquery as sent and sorted', () => {
    expect(canonicalStrings('get', URL_AS_SENT)).toEqual([
      'GET\n/api/v0/pin\nts=1700000000&start=0&limit=5',
      'GET\n/api/v0/pin\nlimit=5&start=0&ts=1700000000',
    ]);
    expect(canonicalStrings('GET', '/api/v0/stats?ts=1')).toEqual(['GET\n/api/v0/stats\nts=1']);
    expect(canonicalStrings('GET', '/api/v0/stats')).toEqual(['GET\n/api/v0/stats\n']);
  });

  it('signs to the two given signatures', () => {
    const [asSent, sorted] = canonicalStrings('GET', URL_AS_SENT) as [string, string];
    expect(sign(HMAC_KEY, asSent)).toBe(AS_SENT_SIG.replace(/=+$/, ''));
    expect(sign(HMAC_KEY, sorted)).toBe(SORTED_SIG.replace(/=+$/, ''));
  });

  it('accepts either signature, with or without padding, and in standard base64', () => {
    for (const sig of [AS_SENT_SIG, SORTED_SIG, AS_SENT_SIG.replace(/=$/, ''), SORTED_SIG.replace(/=$/, '')])
      expect(signatureMatches(HMAC_KEY, 'GET', URL_AS_SENT, sig)).toBe(true);
    const standard = Buffer.from(SORTED_SIG, 'base64url').toString('base64');
    expect(standard).toContain('+');
    expect(signatureMatches(HMAC_KEY, 'GET', URL_AS_SENT, standard)).toBe(true);
    // The sorted form also verifies when the client sent the query already sorted.
    expect(signatureMatches(HMAC_KEY, 'GET', '/api/v0/pin?limit=5&start=0&ts=1700000000', SORTED_SIG)).toBe(true);
  });

  it('refuses another method, path, query, key, a truncated or empty signature', () => {
    expect(signatureMatches(HMAC_KEY, 'POST', URL_AS_SENT, AS_SENT_SIG)).toBe(false);
    expect(signatureMatches(HMAC_KEY, 'GET', '/api/v0/pins?ts=1700000000&start=0&limit=5', AS_SENT_SIG)).toBe(false);
    expect(signatureMatches(HMAC_KEY, 'GET', '/api/v0/pin?ts=1700000001&start=0&limit=5', AS_SENT_SIG)).toBe(false);
    expect(signatureMatches(HMAC_KEY, 'GET', '/api/v0/pin?ts=1700000000&start=0&limit=5&x=1', AS_SENT_SIG)).toBe(false);
    expect(signatureMatches(Buffer.alloc(48), 'GET', URL_AS_SENT, AS_SENT_SIG)).toBe(false);
    expect(signatureMatches(HMAC_KEY, 'GET', URL_AS_SENT, AS_SENT_SIG.slice(0, 20))).toBe(false);
    expect(signatureMatches(HMAC_KEY, 'GET', URL_AS_SENT, '')).toBe(false);
  });

  it('re-renders the query the way URLSearchParams does (percent-encoding, +)', () => {
    const [canonical] = canonicalStrings('GET', '/api/v0/ipns/search?alias=a%20b&ts=5') as [string];
    expect(canonical).toBe('GET\n/api/v0/ipns/search\nalias=a+b&ts=5');
    expect(signatureMatches(HMAC_KEY, 'GET', '/api/v0/ipns/search?alias=a+b&ts=5', sign(HMAC_KEY, canonical))).toBe(true);
  });
});
