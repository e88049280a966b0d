/**
 * What the Files page reads and changes through the request cache: the upload settings (the account, the
 * CID profile, whether the gateway is public) and the pins it makes of its uploads. The uploads themselves
 * (step 1, the bytes with their progress, Cancel) are the page's: nothing of them is cached.
 */
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { PinRecord, UploadSettings } from '../../shared/api-types.js';
import type { ApiClient } from '../api/client.js';
import { useApiMutation, type ApiMutation } from './api-mutation.js';
import { useApiQuery, type ApiQuery } from './api-query.js';
import { putPinRecord, reloadPinRecord } from './pin-records.js';
import { queryKeys } from './query-keys.js';
import { useSessionApi } from './session-api.js';

export function useUploadSettings(): ApiQuery<UploadSettings> {
  return useApiQuery({ queryKey: queryKeys.uploads.settings(), load: (api, signal) => api.uploads.settings(signal) });
}

export interface UploadPin {
  cid: string;
  name: string;
}

/** pin/add under a name, then the pin as the service has it: usually pinned at once (every block is here), else pinning; null if it could not be read back. */
async function pinUpload(api: ApiClient, { cid, name }: UploadPin): Promise<PinRecord | null> {
  await api.pins.add({ cid, name });
  return api.pins.get(cid).catch(() => null);
}

/** The pin is shown where its CID is looked up (else looked up again), and the pin lists, which it joins at the top, load again. */
function pinnedToCache(client: QueryClient, pin: PinRecord | null, { cid }: UploadPin): void {
  if (pin) putPinRecord(client, cid, pin);
  else reloadPinRecord(client, cid);
  void client.invalidateQueries({ queryKey: queryKeys.pins.lists() });
}

/** "Pin…" on one upload, with its busy state and error for the dialog. */
export function usePinUpload(): ApiMutation<UploadPin, PinRecord | null> {
  return useApiMutation({ perform: pinUpload, onSuccess: pinnedToCache });
}

/**
 * Pins uploads as they finish: several may run at once (a mutation hook runs one at a time), each
 * rejecting on its own with the service's refusal, which the page shows beside its upload.
 */
export function usePinEachUpload(): (pin: UploadPin) => Promise<void> {
  const api = useSessionApi();
  const client = useQueryClient();
  return useCallback(
    async (pin: UploadPin) => {
      pinnedToCache(client, await pinUpload(api, pin), pin);
    },
    [api, client],
  );
}
