/**
 * Where a signed-in browser tab keeps its access key: sessionStorage only, so the secret is gone when
 * the tab closes and is never shared with other tabs or written to disk by the app.
 */
import type { Credentials } from './client.js';

/** The part of the Web Storage API used here; sessionStorage in the app, a Map-backed stand-in in tests. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
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

export function loadCredentials(storage: KeyValueStorage): Credentials | null {
  const text = storage.getItem(STORAGE_KEY);
  if (text === null) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) {
      const { accessKey, accessSecret } = parsed as Record<string, unknown>;
      if (typeof accessKey === 'string' && typeof accessSecret === 'string') {
        const check = checkCredentials(accessKey, accessSecret);
        if (check.ok) return check.credentials;
      }
    }
  } catch {
    // fall through: a damaged entry is dropped below
  }
  storage.removeItem(STORAGE_KEY);
  return null;
}

export function saveCredentials(storage: KeyValueStorage, credentials: Credentials): void {
  storage.setItem(STORAGE_KEY, JSON.stringify({ accessKey: credentials.accessKey, accessSecret: credentials.accessSecret }));
}

export function clearCredentials(storage: KeyValueStorage): void {
  storage.removeItem(STORAGE_KEY);
}
