/**
 * Access-key permissions as the key forms offer them: `admin` is every permission (contract section 2), so
 * while it is chosen the others show as granted and cannot be unticked; the user's own choice of them is
 * kept aside and comes back when admin is unticked. Pure, for the Keys and Partners pages.
 */
import type { Permission } from '../../shared/api-types.js';

/** The permissions below admin, in the order the forms and lists show them. */
export const SCOPED_PERMISSIONS = ['read', 'write', 'pin', 'unpin'] as const satisfies readonly Permission[];
export type ScopedPermission = (typeof SCOPED_PERMISSIONS)[number];

export const PERMISSION_INFO: Record<Permission, { label: string; description: string }> = {
  admin: { label: 'Admin', description: 'Everything below, and the account itself: stats, lists, keys, names and the partner API.' },
  read: { label: 'Read', description: 'Fetch content through the gateway (/ipfs, /ipns) and dag/get.' },
  write: { label: 'Write', description: 'Upload, import CARs, edit folders, and create and publish names.' },
  pin: { label: 'Pin', description: 'Pin content (pin/add, and pinning while uploading).' },
  unpin: { label: 'Unpin', description: 'Unpin content (pin/rm, and unpinning the old version in folder edits).' },
};

export interface PermissionChoice {
  admin: boolean;
  /** The permissions below admin the user ticked (kept while admin is ticked). */
  scoped: readonly ScopedPermission[];
}

export const NO_PERMISSIONS: PermissionChoice = { admin: false, scoped: [] };

/** Ticks or unticks one box. Below-admin boxes do not move while admin is ticked (they show as granted). */
export function togglePermission(choice: PermissionChoice, permission: Permission, on: boolean): PermissionChoice {
  if (permission === 'admin') return { ...choice, admin: on };
  if (choice.admin) return choice;
  const others = choice.scoped.filter((each) => each !== permission);
  const scoped = on ? [...others, permission] : others;
  return { admin: false, scoped: SCOPED_PERMISSIONS.filter((each) => scoped.includes(each)) };
}

/** Whether a box shows as ticked: admin grants every permission. */
export function isGranted(choice: PermissionChoice, permission: Permission): boolean {
  if (permission === 'admin') return choice.admin;
  return choice.admin || choice.scoped.includes(permission);
}

/** What the API is sent: `["admin"]` alone (it equals all), else the ticked ones in display order. */
export function permissionsToSend(choice: PermissionChoice): Permission[] {
  return choice.admin ? ['admin'] : [...choice.scoped];
}

/** The permissions of a listed key in display order, admin first; duplicates and admin's implied ones dropped. */
export function orderedPermissions(permissions: readonly Permission[]): Permission[] {
  if (permissions.includes('admin')) return ['admin'];
  return SCOPED_PERMISSIONS.filter((each) => permissions.includes(each));
}

/** "Admin (all permissions)", "Read, Write and Pin": a listed key's permissions in words. */
export function describePermissions(permissions: readonly Permission[]): string {
  const ordered = orderedPermissions(permissions);
  if (ordered[0] === 'admin') return 'Admin (all permissions)';
  const labels = ordered.map((each) => PERMISSION_INFO[each].label);
  if (labels.length === 0) return 'None';
  if (labels.length === 1) return labels[0] ?? '';
  return `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1] ?? ''}`;
}
