import { describe, expect, it } from 'vitest';
import { ForbiddenError } from '../../../main/base/errors.js';
import { hasCapability, requireCapability, type Capability } from '../../../main/accounts/permissions.js';
import { PERMISSIONS, type Permission } from '../../../shared/api-types.js';

const CAPABILITIES: Capability[] = ['read', 'write', 'pin', 'unpin', 'account'];

/** Contract section 2: each permission reaches its own capability; admin reaches all, and alone the account API. */
const EXPECTED: Record<Permission, Capability[]> = {
  admin: ['read', 'write', 'pin', 'unpin', 'account'],
  read: ['read'],
  write: ['write'],
  pin: ['pin'],
  unpin: ['unpin'],
};

describe('capability table', () => {
  for (const permission of PERMISSIONS) {
    for (const capability of CAPABILITIES) {
      const allowed = EXPECTED[permission].includes(capability);
      it(`${permission} ${allowed ? 'reaches' : 'does not reach'} ${capability}`, () => {
        expect(hasCapability([permission], capability)).toBe(allowed);
        if (allowed) expect(() => requireCapability([permission], capability)).not.toThrow();
        else {
          expect(() => requireCapability([permission], capability)).toThrow(ForbiddenError);
          expect(() => requireCapability([permission], capability)).toThrow(`permission missing: ${capability === 'account' ? 'admin' : capability}`);
        }
      });
    }
  }

  it('combined permissions reach the union, never the account API without admin', () => {
    const granted: Permission[] = ['read', 'write', 'pin', 'unpin'];
    for (const capability of ['read', 'write', 'pin', 'unpin'] as const) expect(hasCapability(granted, capability)).toBe(true);
    expect(hasCapability(granted, 'account')).toBe(false);
    expect(hasCapability([], 'read')).toBe(false);
  });
});
