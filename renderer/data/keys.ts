/**
 * The account's access keys and browser sessions in the request cache: the list, creating and deleting a
 * key, revoking every browser session, and `event: key` (a key created or deleted anywhere) loading the
 * list again.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { AccessKeyView, NewAccessKey, Permission, ServiceEvents, SessionsRevoked } from '../../shared/api-types.js';
import type { ListPage } from '../api/core.js';
import { useApiMutation, type ApiMutation } from './api-mutation.js';
import { useApiQuery, type ApiQuery } from './api-query.js';
import type { LiveReloads } from './live-reloads.js';
import { queryKeys } from './query-keys.js';

export function useKeyList(): ApiQuery<ListPage<AccessKeyView>> {
  return useApiQuery({ queryKey: queryKeys.keys.list(), load: (api, signal) => api.keys.list(signal) });
}

function reloadList(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: queryKeys.keys.all });
}

/** The name and permissions of a key to create (a form may carry more: only these are sent). */
export interface KeyRequest {
  name: string;
  permissions: Permission[];
}

/** A new key: the answer holds its secret, the only time the service shows it. */
export function useCreateKey(): ApiMutation<KeyRequest, NewAccessKey> {
  return useApiMutation({ perform: (api, { name, permissions }: KeyRequest) => api.keys.create({ name, permissions }), onSuccess: reloadList });
}

/** Deletes a key or revokes one browser session, by name. */
export function useDeleteKey(): ApiMutation<Pick<AccessKeyView, 'name'>, void> {
  return useApiMutation({ perform: (api, { name }: Pick<AccessKeyView, 'name'>) => api.keys.remove(name), onSuccess: reloadList });
}

/**
 * Revokes every browser session of the account; answers how many. A window that was one of them signs out
 * next: its list is not asked for again (the service would refuse the revoked key).
 */
export function useRevokeAllSessions(): ApiMutation<{ thisWindowToo: boolean }, SessionsRevoked> {
  return useApiMutation({
    perform: (api) => api.session.revokeAll(),
    onSuccess: (client, _result, { thisWindowToo }) => {
      if (!thisWindowToo) reloadList(client);
    },
  });
}

/** `event: key`: a key was created or deleted (here, in another window, by the CLI): the list loads again. */
export function keyEventToCache(_client: QueryClient, _payload: ServiceEvents['key'], reloads: LiveReloads): void {
  reloads.soon(queryKeys.keys.list());
}
