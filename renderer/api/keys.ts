import { is } from 'valibot';
import type { AccessKeyListing, AccessKeyView, NewAccessKey, Permission } from '../../shared/api-types.js';
import { AccessKeyListingSchema, AccessKeyViewSchema, NewAccessKeySchema, PermissionSchema } from '../../shared/schemas/keys.js';
import type { ApiCore, ListPage } from './core.js';
import { arrayOf } from './shape.js';

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

export const isPermission = (value: unknown): value is Permission => is(PermissionSchema, value);
export const isAccessKeyListing = (value: unknown): value is AccessKeyListing => is(AccessKeyListingSchema, value);
export const isNewAccessKey = (value: unknown): value is NewAccessKey => is(NewAccessKeySchema, value);
export const isAccessKeyView = (value: unknown): value is AccessKeyView => is(AccessKeyViewSchema, value);
