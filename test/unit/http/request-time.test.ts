import { describe, expect, it } from 'vitest';
import { BadInputError, UnauthorizedError } from '../../../main/base/errors.js';
import { checkRequestTime } from '../../../main/http/request-time.js';

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
