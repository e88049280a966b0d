/**
 * A query as a page needs it, over TanStack Query: the data (kept while the next load runs, so tables do
 * not blank out between pages and filters), the error as a sentence, whether a load runs, and whether the
 * service is unreachable. The area modules (pins.ts, account.ts, …) wrap it with their keys and calls.
 */
import { keepPreviousData, useQuery, type QueryKey } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import type { ApiClient } from '../api/client.js';
import { failureSentence, isUnreachable } from './failure.js';
import { useSessionApi } from './session-api.js';

export interface ApiQuery<T> {
  /** The last data loaded; kept while a load for other arguments or a reload runs. */
  data: T | undefined;
  /** Why the last load failed, as a sentence; null while the service is unreachable (the banner says so) or after a 401 (the session ends). */
  error: string | null;
  /** A load runs (the first, a reload, one the event stream asked for). */
  loading: boolean;
  /** The last load got no answer: the service is unreachable (the banner says so; it loads again when back). */
  waiting: boolean;
  /** Load again now (the Retry of an error). */
  reload: () => void;
}

export interface ApiQueryInit<T> {
  /** The key from query-keys.ts: what live-cache.ts and the mutations find the data by. */
  queryKey: QueryKey;
  /** The call, with the session's client and the signal that aborts it when its data is no longer wanted. */
  load: (api: ApiClient, signal: AbortSignal) => Promise<T>;
  /** False: nothing is loaded yet (a detail whose id is not known). */
  enabled?: boolean;
}

export function useApiQuery<T>({ queryKey, load, enabled = true }: ApiQueryInit<T>): ApiQuery<T> {
  const api = useSessionApi();
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) => load(api, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
  const { refetch, error, isFetching } = query;
  const reload = useCallback(() => void refetch(), [refetch]);
  const sentence = useMemo(() => failureSentence(error), [error]);
  return { data: query.data, error: sentence, loading: isFetching, waiting: isUnreachable(error), reload };
}
