import { describe, expect, it } from 'vitest';
import { AccessKeyBody, AccessKeyNameBody, DailyUsageQuery } from '../../../main/http/input/account-input.js';
import { requestInput } from '../../../main/http/input/request-input.js';
import { PERMISSIONS } from '../../../shared/api-types.js';
import { refusalOf } from '../../helpers/request-refusal.js';

const ALLOWED = 'allowed: admin, read, write, pin, unpin';

describe('account request schemas', () => {
  it('daily usage: days absent or empty is 30; 1..366 as at most three digits; anything else refused', () => {
    expect(requestInput(DailyUsageQuery, {}).days).toBe(30);
    expect(requestInput(DailyUsageQuery, { days: '' }).days).toBe(30);
    expect(requestInput(DailyUsageQuery, { days: '1' }).days).toBe(1);
    expect(requestInput(DailyUsageQuery, { days: '366' }).days).toBe(366);
    expect(requestInput(DailyUsageQuery, { days: '007' }).days).toBe(7);
    for (const days of ['0', '367', '-1', '1.5', '1e2', 'abc', ' 5', '30x', '0x1f', '9999', '0007', ['1', '2']]) {
      expect(refusalOf(DailyUsageQuery, { days }), String(days)).toEqual({ msg: 'days must be an integer from 1 to 366', param: 'days' });
    }
  });

  it('an access key: a name of some text up to 128 characters, then known permissions, each kept once in order', () => {
    expect(requestInput(AccessKeyBody, { name: 'ci', permissions: ['pin', 'read', 'pin'] })).toEqual({ name: 'ci', permissions: ['pin', 'read'] });
    expect(requestInput(AccessKeyBody, { name: 'x'.repeat(128), permissions: [...PERMISSIONS] }).permissions).toEqual([...PERMISSIONS]);
    for (const name of [undefined, null, '', '   ', 5, ['a']]) {
      expect(refusalOf(AccessKeyBody, { name, permissions: ['read'] }), String(name)).toEqual({ msg: 'name must be a non-empty string', param: 'name' });
    }
    expect(refusalOf(AccessKeyBody, { name: 'x'.repeat(129), permissions: ['read'] })).toEqual({ msg: 'name must be at most 128 characters', param: 'name' });
    for (const permissions of [undefined, null, 'admin', [], {}, 3]) {
      expect(refusalOf(AccessKeyBody, { name: 'ci', permissions }), JSON.stringify(permissions)).toEqual({
        msg: 'permissions must be a non-empty array',
        param: 'permissions',
      });
    }
    const unknown: [unknown[], string][] = [
      [['read', 'root'], '"root"'],
      [['READ'], '"READ"'],
      [[1], '1'],
      [[null], 'null'],
      [[['read']], '["read"]'],
    ];
    for (const [permissions, shown] of unknown) {
      expect(refusalOf(AccessKeyBody, { name: 'ci', permissions })).toEqual({
        msg: `permissions: unknown permission ${shown}; ${ALLOWED}`,
        param: 'permissions',
      });
    }
    // The name is checked before the permissions.
    expect(refusalOf(AccessKeyBody, { name: '', permissions: [] }).param).toBe('name');
  });

  it('deleting a key names it', () => {
    expect(requestInput(AccessKeyNameBody, { name: 'ci' })).toEqual({ name: 'ci' });
    expect(refusalOf(AccessKeyNameBody, {})).toEqual({ msg: 'name must be a non-empty string', param: 'name' });
  });
});
