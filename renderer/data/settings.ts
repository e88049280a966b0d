/**
 * Every setting of the data folder's settings.json in the request cache (the Settings page and the
 * window's theme, for the owner account): `GET /api/v0/settings`, and a change saved through
 * `POST /api/v0/settings`. The service sends no event for them: a save puts its answer in place.
 */
import type { SettingsChange, SettingsView } from '../../shared/api-types.js';
import { useApiMutation, type ApiMutation } from './api-mutation.js';
import { useApiQuery, type ApiQuery } from './api-query.js';
import { nullUnlessOwner } from './owner-only.js';
import { queryKeys } from './query-keys.js';

/** Every setting, or null: they are the owner's, and this account is another (403). */
export function useSettings(): ApiQuery<SettingsView | null> {
  return useApiQuery({
    queryKey: queryKeys.service.settings(),
    load: (api, signal) => nullUnlessOwner(api.service.settings(signal)),
  });
}

/**
 * Saves a change (only the settings it names); the service's answer is what the page shows next. A bad
 * value is refused whole, with the setting at fault as `errorParam`.
 */
export function useSaveSettings(): ApiMutation<SettingsChange, SettingsView> {
  return useApiMutation({
    perform: (api, change: SettingsChange) => api.service.saveSettings(change),
    onSuccess: (client, view) => {
      client.setQueryData(queryKeys.service.settings(), view);
      // The facts show the GC settings, the CID profile and the public gateway in use.
      void client.invalidateQueries({ queryKey: queryKeys.service.facts() });
    },
  });
}
