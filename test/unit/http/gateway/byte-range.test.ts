import { describe, expect, it } from 'vitest';
import { parseRange } from '../../../../main/http/gateway/byte-range.js';

describe('parseRange (RFC 9110 section 14, contract section 3: 416 for a range past the end)', () => {
  const size = 1400;

  it('a first byte at or past the end selects nothing: unsatisfiable, however large the number', () => {
    expect(parseRange('bytes=999999999-', size)).toBe('unsatisfiable');
    expect(parseRange('bytes=1400-', size)).toBe('unsatisfiable');
    expect(parseRange('bytes=1400-1400', size)).toBe('unsatisfiable');
    expect(parseRange('bytes=5000-6000', size)).toBe('unsatisfiable');
    expect(parseRange('bytes=99999999999999999999999-', size)).toBe('unsatisfiable');
    expect(parseRange('bytes=99999999999999999999999-99999999999999999999999', size)).toBe('unsatisfiable');
  });

  it('the last byte of the body is the last one a range may start at', () => {
    expect(parseRange('bytes=1399-', size)).toEqual({ start: 1399, end: 1399 });
    expect(parseRange('bytes=0-0', size)).toEqual({ start: 0, end: 0 });
    expect(parseRange('bytes=0-', size)).toEqual({ start: 0, end: 1399 });
  });

  it('a last byte past the end is clipped; a suffix longer than the body takes all of it', () => {
    expect(parseRange('bytes=100-99999999999999999999', size)).toEqual({ start: 100, end: 1399 });
    expect(parseRange('bytes=-5000', size)).toEqual({ start: 0, end: 1399 });
    expect(parseRange('bytes=-1400', size)).toEqual({ start: 0, end: 1399 });
    expect(parseRange('bytes=-1', size)).toEqual({ start: 1399, end: 1399 });
  });

  it('an empty suffix, and any range of an empty body, select nothing', () => {
    expect(parseRange('bytes=-0', size)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
    expect(parseRange('bytes=-5', 0)).toBe('unsatisfiable');
  });

  it('several ranges: the first that selects bytes; unsatisfiable only when none does', () => {
    expect(parseRange('bytes=6-16,0-4', size)).toEqual({ start: 6, end: 16 });
    expect(parseRange('bytes=5000-6000, 10-20', size)).toEqual({ start: 10, end: 20 });
    expect(parseRange('bytes=-0,1400-,7-', size)).toEqual({ start: 7, end: 1399 });
    expect(parseRange('bytes=5000-6000,1400-', size)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,,5-6', size)).toEqual({ start: 0, end: 1 });
  });

  it('the unit is case-insensitive; spaces around the list are allowed', () => {
    expect(parseRange('Bytes=6-16', size)).toEqual({ start: 6, end: 16 });
    expect(parseRange(' bytes = 6-16 , 20-30 ', size)).toEqual({ start: 6, end: 16 });
  });

  it('no header, another unit, or a set that does not parse: the whole body (ignored, not 416)', () => {
    for (const header of [
      undefined,
      'items=0-5',
      'pages=1-2',
      'bytes',
      'bytes=',
      'bytes=,',
      'bytes=-',
      'bytes=abc',
      'bytes=5-2',
      'bytes=0-5,9-3',
      'bytes=1-2-3',
      'bytes=--5',
      'bytes=+1-2',
      'bytes=0x10-0x20',
      'bytes=1.5-2',
      'bytes=0-5;6-7',
    ]) {
      expect(parseRange(header, size), String(header)).toBeUndefined();
    }
  });
});
