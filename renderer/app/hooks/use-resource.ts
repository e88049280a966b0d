import { useCallback, useEffect, useMemo, useState, useSyncExternalStore, type DependencyList } from 'react';
import { ApiError, isAbortError } from '../../api/api-error.js';
import { describeError } from '../../lib/messages.js';
import { useServices } from '../services-context.js';

export interface Resource<T> {
  /** The last data loaded; kept while a reload runs, so tables do not blank out between pages. */
  data: T | undefined;
  /** Why the last load failed, as a sentence; null while the service is merely unreachable (the banner says so). */
  error: string | null;
  loading: boolean;
  /** The last load got no answer: the service is unreachable (the banner says so; it loads again when back). */
  waiting: boolean;
  /** Load again now (after an action changed what the page shows). */
  reload: () => void;
  /** Replace the data in place (a live event brought the new state). */
  update: (change: (current: T | undefined) => T | undefined) => void;
}

interface Settled<T> {
  data: T | undefined;
  error: string | null;
  waiting: boolean;
  /** The request this outcome answers; while it is not the current one, a load is running. */
  request: object | null;
}

/**
 * Loads what a page shows and keeps it current: again when `deps` change, on reload(), and on every
 * refresh signal (the service is back, the event stream resumed after a gap). The previous load is
 * aborted. A 401 needs nothing here: the session has already sent the window to sign-in.
 *
 *   const pins = useResource((signal) => api.pins.list(query, signal), [api, query]);
 *
 * On its way out: a page moved onto the data layer reads through its query hooks (renderer/data), which
 * keep what useResource gave; this goes once the last page has moved.
 */
export function useResource<T>(load: (signal: AbortSignal) => Promise<T>, deps: DependencyList): Resource<T> {
  const services = useServices();
  const epoch = useSyncExternalStore(services.refresh.epoch.subscribe, services.refresh.epoch.get);
  const [reloads, setReloads] = useState(0);
  const [settled, setSettled] = useState<Settled<T>>({ data: undefined, error: null, waiting: false, request: null });
  // A new identity for each load the deps, the refresh epoch or reload() ask for (the caller's deps
  // make the list longer than a literal can say).
  // eslint-disable-next-line react-hooks/use-memo, react-hooks/exhaustive-deps
  const request = useMemo(() => ({}), [...deps, epoch, reloads]);

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setSettled({ data, error: null, waiting: false, request });
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        const unreachable = error instanceof ApiError && error.isUnreachable;
        const quiet = unreachable || (error instanceof ApiError && error.isUnauthorized);
        setSettled((current) => ({ data: current.data, error: quiet ? null : describeError(error), waiting: unreachable, request }));
      },
    );
    return () => controller.abort();
    // `request` changes exactly when a load is due; `load` is a new closure each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [request]);

  const reload = useCallback(() => setReloads((count) => count + 1), []);
  const update = useCallback((change: (current: T | undefined) => T | undefined) => {
    setSettled((current) => ({ ...current, data: change(current.data) }));
  }, []);
  return { data: settled.data, error: settled.error, waiting: settled.waiting, loading: settled.request !== request, reload, update };
}
