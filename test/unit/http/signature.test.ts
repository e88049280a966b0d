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

/** Contract section 2, "Canonical path": the worked example and the SDKs' shapes, with the same secret. */
describe('X-Access-Signature over the canonical path', () => {
  const EMPTY_DIR = 'QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn';
  const WITHOUT_SLASH_SIG = 'oE8xW28HXFIsq47FLRNf5oq0FIGiYOYqwdF3ZgTpP3k';
  const WITH_SLASH_SIG = 'pHJdXfCQYLfDMHp632-pbk6Gf19sIKciE0kDUWCpT9o';
  const accepts = (method: string, url: string, canonical: string) => signatureMatches(HMAC_KEY, method, url, sign(HMAC_KEY, canonical));

  it('reproduces the worked example: the path with its slash is accepted with either signature', () => {
    expect(sign(HMAC_KEY, `GET\n/ipfs/${EMPTY_DIR}\nts=1700000000`)).toBe(WITHOUT_SLASH_SIG);
    expect(sign(HMAC_KEY, `GET\n/ipfs/${EMPTY_DIR}/\nts=1700000000`)).toBe(WITH_SLASH_SIG);
    expect(signatureMatches(HMAC_KEY, 'GET', `/ipfs/${EMPTY_DIR}/?ts=1700000000`, WITHOUT_SLASH_SIG)).toBe(true);
    expect(signatureMatches(HMAC_KEY, 'GET', `/ipfs/${EMPTY_DIR}/?ts=1700000000`, WITH_SLASH_SIG)).toBe(true);
    // The other way round there is nothing to remove: a path sent without its slash verifies only its own form.
    expect(signatureMatches(HMAC_KEY, 'GET', `/ipfs/${EMPTY_DIR}?ts=1700000000`, WITHOUT_SLASH_SIG)).toBe(true);
    expect(signatureMatches(HMAC_KEY, 'GET', `/ipfs/${EMPTY_DIR}?ts=1700000000`, WITH_SLASH_SIG)).toBe(false);
  });

  it('a redirect to "…/" keeps the signature of the first URL valid, in every SDK\'s form', () => {
    const dir = `/ipfs/${EMPTY_DIR}/dir%20with%20space`;
    // JS and Python sign the encoded path with the query as sent; Go the decoded path with the query sorted.
    expect(accepts('GET', `${dir}/?ts=1700000000&x=1`, `GET\n${dir}\nts=1700000000&x=1`)).toBe(true);
    expect(accepts('GET', `${dir}/?x=1&ts=1700000000`, `GET\n/ipfs/${EMPTY_DIR}/dir with space\nts=1700000000&x=1`)).toBe(true);
  });

  it('accepts Go\'s decoded path for a DAG add to "dir with space/ü.txt" (known answers from Python\'s hmac)', () => {
    const url = `/ipfs/${EMPTY_DIR}/dir%20with%20space/%C3%BC.txt?size=5&ts=1700000000`;
    const goSignature = 'N3Yzg2Oc7KxIlVYOEfE6OkK5WI4h32gHFAsR8khwIhI=';
    const jsSignature = '5BLw5UZihtWYGgIkNGh-O1eFaQ8jDGJXJAZyDs6JUK8=';
    expect(sign(HMAC_KEY, `PUT\n/ipfs/${EMPTY_DIR}/dir with space/ü.txt\nsize=5&ts=1700000000`)).toBe(goSignature.replace(/=$/, ''));
    expect(signatureMatches(HMAC_KEY, 'PUT', url, goSignature)).toBe(true);
    expect(signatureMatches(HMAC_KEY, 'PUT', url, jsSignature)).toBe(true);
    expect(signatureMatches(HMAC_KEY, 'POST', url, goSignature)).toBe(false);
    expect(signatureMatches(HMAC_KEY, 'PUT', url.replace('size=5', 'size=6'), goSignature)).toBe(false);
  });

  it('lists each candidate once: as sent first, then canonical, then decoded, each with the query as sent and sorted', () => {
    expect(canonicalStrings('get', '/ipfs/R//a%20b/?z=1&a=2')).toEqual([
      'GET\n/ipfs/R//a%20b/\nz=1&a=2',
      'GET\n/ipfs/R//a%20b/\na=2&z=1',
      'GET\n/ipfs/R/a%20b\nz=1&a=2',
      'GET\n/ipfs/R/a%20b\na=2&z=1',
      'GET\n/ipfs/R/a b\nz=1&a=2',
      'GET\n/ipfs/R/a b\na=2&z=1',
    ]);
    // An API path has one form: no extra HMAC on the hot path.
    expect(canonicalStrings('GET', '/api/v0/pin?ts=1')).toEqual(['GET\n/api/v0/pin\nts=1']);
  });

  describe('a signature for one resource is refused for another', () => {
    const R = `/ipfs/${EMPTY_DIR}`;
    /**
     * Every form a client may have signed `path` in: as given, and decoded as Go's URL.Path holds it (Go
     * cannot hold a name with "/" in it, so that one has no decoded form).
     */
    const signedForms = (path: string) => {
      const segments = path.split('/').map((segment) => decodeURIComponent(segment));
      return segments.some((segment) => segment.includes('/')) ? [path] : [path, segments.join('/')];
    };
    const refusedEverywhere = (signedPath: string, requestPath: string, method = 'GET') => {
      for (const form of signedForms(signedPath)) {
        for (const query of ['ts=1700000000', '']) {
          const url = query === '' ? requestPath : `${requestPath}?${query}`;
          expect(accepts(method, url, `${method}\n${form}\n${query}`), `${form} for ${url}`).toBe(false);
        }
      }
    };

    it('"%2F" in a name never stands for "/" between names, either way round', () => {
      refusedEverywhere(`${R}/a/b`, `${R}/a%2Fb`);
      refusedEverywhere(`${R}/a%2Fb`, `${R}/a/b`);
      refusedEverywhere(`${R}/a/b`, `${R}/a%2fb/`);
      // The encoded form of a%2Fb still verifies itself (the gateway then refuses the name with a 400).
      expect(accepts('GET', `${R}/a%2Fb`, `GET\n${R}/a%2Fb\n`)).toBe(true);
    });

    it('a decoded name that still reads as an escape is not taken for the name it escapes', () => {
      // The name "a%41" is sent as a%2541; "a%41" as sent is the name "aA".
      refusedEverywhere(`${R}/a%41`, `${R}/a%2541`);
      refusedEverywhere(`${R}/aA`, `${R}/a%2541`);
      // The limit no server can lift: Go signs the name "a%41" as "/ipfs/…/a%41", the very string a JS
      // client signs for the name "aA". That string is read as sent, so it verifies the request for "aA".
      expect(accepts('GET', `${R}/a%41`, `GET\n${R}/a%41\n`)).toBe(true);
      // "%2F" spelled out in a name ("%252F") is not "/" either.
      refusedEverywhere(`${R}/%2F`, `${R}/%252F`);
      // A "%" that starts no escape reads back as nothing else: Go's decoded signature is accepted.
      expect(accepts('GET', `${R}/100%25.txt`, `GET\n${R}/100%.txt\n`)).toBe(true);
      expect(accepts('GET', `${R}/100%25%20off.txt`, `GET\n${R}/100% off.txt\n`)).toBe(true);
    });

    it('empty segments go, but names never merge, split or move', () => {
      expect(accepts('GET', `${R}//a//b/`, `GET\n${R}/a/b\n`)).toBe(true);
      refusedEverywhere(`${R}/a/b`, `${R}/ab`);
      refusedEverywhere(`${R}/ab`, `${R}/a/b`);
      refusedEverywhere(`${R}/a/b`, `${R}/a/b/c`);
      refusedEverywhere(`${R}/a/b`, `${R}/a`);
      refusedEverywhere(`${R}/a/b`, `${R}/b/a`);
      refusedEverywhere(`${R}/a%20b`, `${R}/a/b`);
    });

    it('dot segments are not resolved, plain or encoded', () => {
      refusedEverywhere(`${R}/b`, `${R}/a/../b`);
      refusedEverywhere(`${R}/b`, `${R}/./b`);
      refusedEverywhere(`${R}/b`, `${R}/a/%2E%2E/b`);
      refusedEverywhere(`${R}/a/b`, `${R}/a/b/..`);
    });

    it('the query cannot move into the path, nor a newline split the path into a query', () => {
      expect(accepts('GET', `${R}/x%3Fa=1`, `GET\n${R}/x\na=1`)).toBe(false);
      expect(accepts('GET', `${R}/x?a=1`, `GET\n${R}/x?a=1\n`)).toBe(false);
      expect(accepts('GET', `${R}/x%0Aa=1`, `GET\n${R}/x\na=1\n`)).toBe(false);
      expect(accepts('GET', `${R}/x?a=1`, `GET\n${R}/x\na=1`)).toBe(true);
    });

    it('the query stays bound: values, names, extra or missing parameters, another order', () => {
      const signed = `GET\n${R}\na=1&b=2`;
      expect(accepts('GET', `${R}/?a=1&b=2`, signed)).toBe(true);
      expect(accepts('GET', `${R}/?b=2&a=1`, signed)).toBe(true);
      for (const query of ['a=2&b=1', 'a=1', 'a=1&b=2&b=3', 'a=1&b=2&ts=1', 'b=2', 'a=1&c=2', 'a=1%26b%3D2'])
        expect(accepts('GET', `${R}/?${query}`, signed), query).toBe(false);
      expect(accepts('GET', `${R}/?c=3&a=1&b=2`, `GET\n${R}\na=1&c=3&b=2`)).toBe(false);
    });

    it('the method stays bound in every path form', () => {
      for (const form of signedForms(`${R}/dir%20with%20space`)) {
        expect(accepts('GET', `${R}/dir%20with%20space/`, `GET\n${form}\n`)).toBe(true);
        for (const method of ['HEAD', 'PUT', 'POST', 'DELETE'])
          expect(accepts(method, `${R}/dir%20with%20space/`, `GET\n${form}\n`), `${method} ${form}`).toBe(false);
      }
    });
  });
});
