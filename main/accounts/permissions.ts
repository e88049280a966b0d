import { PERMISSIONS, type Permission } from '../../shared/api-types.js';
import { BadInputError, ForbiddenError } from '../base/errors.js';

/** What a request needs. `account` means the account API (admin only, contract section 2). */
export type Capability = 'read' | 'write' | 'pin' | 'unpin' | 'account';

export function hasCapability(granted: readonly Permission[], needed: Capability): boolean {
  if (granted.includes('admin')) return true;
  if (needed === 'account') return false;
  return granted.includes(needed);
}

export function requireCapability(granted: readonly Permission[], needed: Capability): void {
  if (!hasCapability(granted, needed)) throw new ForbiddenError(needed === 'account' ? 'permission missing: admin' : `permission missing: ${needed}`);
}

export function parsePermissions(value: unknown): Permission[] {
  if (!Array.isArray(value) || value.length === 0) throw new BadInputError('permissions must be a non-empty array');
  const out: Permission[] = [];
  for (const item of value) {
    if (typeof item !== 'string' || !PERMISSIONS.includes(item as Permission))
      throw new BadInputError(`permissions: unknown permission ${JSON.stringify(item)}; allowed: ${PERMISSIONS.join(', ')}`);
    if (!out.includes(item as Permission)) out.push(item as Permission);
  }
  return out;
}
