/**
 * Pins looked up one at a time by CID, for a page that shows the pin state of CIDs it knows of its own
 * (the Files page's recent uploads): null when the service holds no pin of the CID. Looked up when shown,
 * a few at once; `event: pin` and a pin made from the window put the new state in place (pins.ts).
 */
import { useQueries, type QueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import type { PinRecord, ServiceEvents } from '../../shared/api-types.js';
import { ApiError } from '../api/api-error.js';
import type { ApiClient } from '../api/client.js';
import { createLimiter } from '../lib/limiter.js';
import { queryKeys } from './query-keys.js';
import { useSessionApi } from './session-api.js';

/** Lookups at once: the rest wait, so the requests a user waits for still find a connection. */
export const PIN_LOOKUPS_AT_ONCE = 4;
const lookups = createLimiter(PIN_LOOKUPS_AT_ONCE);

/** The pin of `cid`, or null: the service holds none. */
function lookUpPin(api: ApiClient, cid: string, signal: AbortSignal): Promise<PinRecord | null> {
  return api.pins.get(cid, signal).catch((error: unknown) => {
    if (error instanceof ApiError && error.error === 'not_found') return null;
    throw error;
  });
}

/**
 * The pins of `cids` as the service has them: a CID maps to its pin, to null (no pin), or is absent while
 * its lookup runs or after it failed (the page then shows what it knew before).
 */
export function usePinRecords(cids: readonly string[]): ReadonlyMap<string, PinRecord | null> {
  const api = useSessionApi();
  const queries = useMemo(
    () =>
      cids.map((cid) => ({
        queryKey: queryKeys.pins.record(cid),
        queryFn: ({ signal }: { signal: AbortSignal }) => lookups.run(() => lookUpPin(api, cid, signal), signal),
      })),
    [api, cids],
  );
  const combine = useCallback(
    (results: ReadonlyArray<{ data: PinRecord | null | undefined }>) => {
      const records = new Map<string, PinRecord | null>();
      results.forEach((result, index) => {
        const cid = cids[index];
        if (cid !== undefined && result.data !== undefined) records.set(cid, result.data);
      });
      return records;
    },
    [cids],
  );
  return useQueries({ queries, combine });
}

/**
 * What the service now says of the pin of `cid`, in place of what is held (only where a page looks it up).
 * A lookup still on its way is dropped first: it may answer from before this change and would overwrite it.
 */
export function putPinRecord(client: QueryClient, cid: string, record: PinRecord | null): void {
  const queryKey = queryKeys.pins.record(cid);
  if (client.getQueryState(queryKey) === undefined) return;
  // The cancel puts the query back as it was before the lookup at once (not in a later task), so the data set next stays.
  void client.cancelQueries({ queryKey, exact: true });
  client.setQueryData(queryKey, record);
}

/** After a change whose outcome is not known: the pin of `cid` is looked up again where it is shown. */
export function reloadPinRecord(client: QueryClient, cid: string): void {
  void client.invalidateQueries({ queryKey: queryKeys.pins.record(cid), exact: true });
}

/** `event: pin` for the pins looked up by CID: the new state, or null once the pin is gone. */
export function pinRecordEventToCache(client: QueryClient, payload: ServiceEvents['pin']): void {
  putPinRecord(client, payload.cid, 'removed' in payload ? null : payload);
}
