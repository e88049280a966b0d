import { PERMISSIONS, type AccessKeyListing, type AccessKeyView, type NewAccessKey, type Permission } from '../../shared/api-types.js';
import type { ApiCore, ListPage } from './core.js';
import { arrayOf, hasStrings, isRecord } from './shape.js';

export interface KeysApi {
  /** GET /api/v0/keys (every key of the account, session keys marked; not paged, so total = items.length). */
  list(signal?: AbortSignal): Promise<ListPage<AccessKeyView>>;
  /** POST /api/v0/key: the answer holds the secret and the PSA token, the only time the service ever shows them. */
  create(key: { name: string; permissions: Permission[] }, signal?: AbortSignal): Promise<NewAccessKey>;
  /** DELETE /api/v0/key. */
  remove(name: string, signal?: AbortSignal): Promise<void>;
}

export function keysApi(core: ApiCore): KeysApi {
  return {
    list: async (signal) => {
      const items = await core.data({ path: '/api/v0/keys', signal }, arrayOf(isAccessKeyView), 'the key list');
      return { items, total: items.length };
    },
    create: (key, signal) => core.data({ method: 'POST', path: '/api/v0/key', signal, body: key }, isNewAccessKey, 'the new key'),
    remove: (name, signal) => core.empty({ method: 'DELETE', path: '/api/v0/key', signal, body: { name } }),
  };
}

export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && (PERMISSIONS as readonly string[]).includes(value);
}

export function isAccessKeyListing(value: unknown): value is AccessKeyListing {
  return isRecord(value) && hasStrings(value, ['name', 'access_key']) && Array.isArray(value.permissions) && value.permissions.every(isPermission);
}

export function isNewAccessKey(value: unknown): value is NewAccessKey {
  return isRecord(value) && hasStrings(value, ['access_key', 'access_secret', 'psa_token']);
}

export function isAccessKeyView(value: unknown): value is AccessKeyView {
  return isAccessKeyListing(value) && isRecord(value) && (value.session === false || (value.session === true && typeof value.expires_at === 'number'));
}
