/**
 * Where a signed-in browser tab keeps its access key: sessionStorage only, so the secret is gone when
 * the tab closes and is never shared with other tabs or written to disk by the app.
 */
import type { Credentials } from './core.js';

/** The part of the Web Storage API used here; sessionStorage in the app, a Map-backed stand-in in tests. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * How the tab signed in: `key` with a pasted access key, `session` with a session key from a sign-in
 * link (signing out deletes it on the service), `owner` through the desktop bridge (never stored).
 */
export type SignInKind = 'key' | 'session' | 'owner';

export interface StoredSignIn {
  credentials: Credentials;
  kind: Exclude<SignInKind, 'owner'>;
}

const STORAGE_KEY = 'pinfold.credentials';

// Header values must be visible ASCII: anything else makes fetch throw before a request is sent.
const HEADER_SAFE = /^[\x21-\x7e]+$/;

export type CredentialsCheck = { ok: true; credentials: Credentials } | { ok: false; field: 'accessKey' | 'accessSecret'; message: string };

/** Trims what the user pasted and says which field is unusable, before any request is made. */
export function checkCredentials(accessKey: string, accessSecret: string): CredentialsCheck {
  const key = accessKey.trim();
  const secret = accessSecret.trim();
  if (key === '') return { ok: false, field: 'accessKey', message: 'Enter an access key.' };
  if (!HEADER_SAFE.test(key)) return { ok: false, field: 'accessKey', message: 'The access key contains characters an access key cannot have.' };
  if (secret === '') return { ok: false, field: 'accessSecret', message: 'Enter the access secret.' };
  if (!HEADER_SAFE.test(secret)) return { ok: false, field: 'accessSecret', message: 'The access secret contains characters an access secret cannot have.' };
  return { ok: true, credentials: { accessKey: key, accessSecret: secret } };
}

export function loadSignIn(storage: KeyValueStorage): StoredSignIn | null {
  const text = storage.getItem(STORAGE_KEY);
  if (text === null) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) {
      const { accessKey, accessSecret, session } = parsed as Record<string, unknown>;
      if (typeof accessKey === 'string' && typeof accessSecret === 'string' && (session === undefined || session === true)) {
        const check = checkCredentials(accessKey, accessSecret);
        if (check.ok) return { credentials: check.credentials, kind: session === true ? 'session' : 'key' };
      }
    }
  } catch {
    // fall through: a damaged entry is dropped below
  }
  storage.removeItem(STORAGE_KEY);
  return null;
}

export function saveSignIn(storage: KeyValueStorage, signIn: StoredSignIn): void {
  const { accessKey, accessSecret } = signIn.credentials;
  storage.setItem(STORAGE_KEY, JSON.stringify(signIn.kind === 'session' ? { accessKey, accessSecret, session: true } : { accessKey, accessSecret }));
}

export function clearSignIn(storage: KeyValueStorage): void {
  storage.removeItem(STORAGE_KEY);
}
