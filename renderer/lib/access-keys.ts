/**
 * The Keys page's rules as pure functions: what a new key's form accepts (the service's own rules,
 * checked before a request so the error sits beside the field), how the list splits into keys and
 * browser sessions, and which deletions the window refuses because they would cut its own sign-in.
 */
import type { AccessKeyView, Permission } from '../../shared/api-types.js';
import { permissionsToSend, type PermissionChoice } from './permissions.js';

/** The service's limit on a key's name (main/accounts/access-keys.ts). */
export const MAX_KEY_NAME_LENGTH = 128;

export type NewKeyCheck = { ok: true; name: string; permissions: Permission[] } | { ok: false; errors: { name?: string; permissions?: string } };

/** Checks a new key's name and permissions; the name is trimmed (a pasted name often carries a space). */
export function checkNewKey(rawName: string, choice: PermissionChoice, existingNames: readonly string[]): NewKeyCheck {
  const name = rawName.trim();
  const errors: { name?: string; permissions?: string } = {};
  if (name === '') errors.name = 'Enter a name for the key, such as the script or app that will use it.';
  else if (name.length > MAX_KEY_NAME_LENGTH) errors.name = `Use at most ${MAX_KEY_NAME_LENGTH} characters (this name has ${name.length}).`;
  else if (existingNames.includes(name)) errors.name = `A key named “${name}” already exists. Names are unique within an account.`;
  const permissions = permissionsToSend(choice);
  if (permissions.length === 0) errors.permissions = 'Choose at least one permission.';
  if (errors.name !== undefined || errors.permissions !== undefined) return { ok: false, errors };
  return { ok: true, name, permissions };
}

export type SessionKeyView = Extract<AccessKeyView, { session: true }>;

/** Ordinary keys and browser sessions (newest first, as the service lists them), apart. */
export function splitKeys(keys: readonly AccessKeyView[]): { keys: AccessKeyView[]; sessions: SessionKeyView[] } {
  const ordinary: AccessKeyView[] = [];
  const sessions: SessionKeyView[] = [];
  for (const key of keys) {
    if (key.session) sessions.push(key);
    else ordinary.push(key);
  }
  return { keys: ordinary, sessions };
}

/**
 * Why the window will not delete this key, or null when it may: the key this window is signed in with
 * would sign it out mid-action (the delete would succeed and every later call fail with 401).
 */
export function deletionRefusal(key: Pick<AccessKeyView, 'name' | 'access_key' | 'session'>, signedInWith: string): string | null {
  if (key.access_key !== signedInWith) return null;
  if (key.session) return `“${key.name}” is this window's own session. To end it, use Sign out at the top right.`;
  return `This window is signed in with “${key.name}”, so it cannot delete it. Sign in with another admin key (or a sign-in link from \`pinfold open\`) and delete it from there.`;
}
