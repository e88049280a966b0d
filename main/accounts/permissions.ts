import type { Permission } from '../../shared/api-types.js';
import { ForbiddenError } from '../base/errors.js';

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
