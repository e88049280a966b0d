import { describe, expect, it } from 'vitest';
import { parseChange } from '../../../main/base/changes.js';

describe('change payloads between instances', () => {
  it('reads the two kinds as JSON {kind, key}', () => {
    expect(parseChange(JSON.stringify({ kind: 'access-key', key: 'k1' }))).toEqual({ kind: 'access-key', key: 'k1' });
    expect(parseChange('{"kind":"ipns-name","key":"k51abc"}')).toEqual({ kind: 'ipns-name', key: 'k51abc' });
  });

  it('ignores what is not one of ours rather than acting on it', () => {
    for (const payload of [
      undefined,
      '',
      'not json',
      'null',
      '[]',
      '{"kind":"account","key":"1"}',
      '{"kind":"access-key"}',
      '{"kind":"access-key","key":""}',
      '{"kind":"access-key","key":7}',
    ]) {
      expect(parseChange(payload), String(payload)).toBeNull();
    }
  });
});
