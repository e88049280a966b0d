import { describe, expect, it } from 'vitest';
import { parseChange } from '../../../main/base/changes.js';

describe('change payloads between instances', () => {
  it('reads the four kinds as JSON {kind, key}', () => {
    expect(parseChange(JSON.stringify({ kind: 'access-key', key: 'k1' }))).toEqual({ kind: 'access-key', key: 'k1' });
    expect(parseChange('{"kind":"ipns-name","key":"k51abc"}')).toEqual({ kind: 'ipns-name', key: 'k51abc' });
    // As the database's triggers send them (migration 3): the account id as text.
    expect(parseChange('{"kind" : "account", "key" : "1"}')).toEqual({ kind: 'account', key: '1' });
    expect(parseChange('{"kind":"usage","key":"12"}')).toEqual({ kind: 'usage', key: '12' });
  });

  it('ignores what is not one of ours rather than acting on it', () => {
    for (const payload of [
      undefined,
      '',
      'not json',
      'null',
      '[]',
      '{"kind":"plan","key":"1"}',
      '{"kind":"access-key"}',
      '{"kind":"access-key","key":""}',
      '{"kind":"access-key","key":7}',
    ]) {
      expect(parseChange(payload), String(payload)).toBeNull();
    }
  });
});
