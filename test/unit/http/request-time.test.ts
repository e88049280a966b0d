import { describe, expect, it } from 'vitest';
import { BadInputError, UnauthorizedError } from '../../../main/base/errors.js';
import { checkRequestTime, queryTs } from '../../../main/http/request-time.js';

describe('ts check', () => {
  const now = 1_800_000_000;
  it('accepts a ts within the window on either side, edges included', () => {
    for (const ts of [now, now - 300, now + 300, now - 1]) expect(() => checkRequestTime(String(ts), now, 300)).not.toThrow();
  });
  it('missing or not an integer: 400 naming ts', () => {
    for (const ts of [undefined, '', '1.5', 'abc', '1e9', ' 1', '0x10', '12345678901234567']) {
      expect(() => checkRequestTime(ts, now, 300)).toThrow(BadInputError);
      expect(() => checkRequestTime(ts, now, 300)).toThrow(/^ts /);
    }
  });
  it('further than the window: 401', () => {
    for (const ts of [now - 301, now + 301, 0, now - 100]) {
      const window = ts === now - 100 ? 5 : 300;
      expect(() => checkRequestTime(String(ts), now, window)).toThrow(UnauthorizedError);
      expect(() => checkRequestTime(String(ts), now, window)).toThrow(/^ts /);
    }
  });
});

describe('queryTs', () => {
  it('reads ts as URLSearchParams would, on the fast path and off it', () => {
    const urls = [
      '/api/v0/stats?ts=1700000000',
      '/api/v0/pin?limit=5&ts=1700000000&start=0',
      '/x?ts=1&ts=2',
      '/x?a=1&ts=',
      '/x?ts=12abc',
      '/x?ts=-5',
      '/x?%74s=1&ts=2',
      '/x?t%73=9',
      '/x?ats=1',
      '/x?a=ts=1',
      '/x?ts=1+2',
      '/x',
      '/x?',
    ];
    for (const url of urls) {
      const q = url.indexOf('?');
      const expected = q === -1 ? undefined : (new URLSearchParams(url.slice(q + 1)).get('ts') ?? undefined);
      expect(queryTs(url), url).toBe(expected);
    }
  });
});
