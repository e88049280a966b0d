import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, isAbortError } from '../../api/api-error.js';
import { describeError } from '../../lib/messages.js';

export type ActionResult<R> = { ok: true; value: R } | { ok: false };

export interface Action<A extends unknown[], R> {
  /** Runs the action (ignored while it already runs); resolves `{ok: true, value}` or `{ok: false}`. */
  run: (...args: A) => Promise<ActionResult<R>>;
  pending: boolean;
  /** Why the last run failed, as a sentence to show next to the control that started it. */
  error: string | null;
  clearError: () => void;
}

/**
 * One user action that calls the service (unpin, rename, create a key): `pending` for the button's busy
 * state, `error` for an InlineError beside it, and an AbortSignal that fires when the page goes away.
 * A 401 shows nothing here: the session has already sent the window to sign-in.
 *
 *   const unpin = useAction((signal, cid: string) => api.pins.remove(cid, signal));
 *   <Button busy={unpin.pending} onClick={() => void unpin.run(cid)}>Unpin</Button>
 *   <InlineError message={unpin.error} />
 *
 * On its way out: a page moved onto the data layer acts through its mutation hooks (renderer/data), which
 * keep what useAction gave; this goes once the last page has moved.
 */
export function useAction<A extends unknown[], R>(perform: (signal: AbortSignal, ...args: A) => Promise<R>): Action<A, R> {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = useRef(false);
  const controller = useRef<AbortController | null>(null);
  const latest = useRef(perform);
  useEffect(() => {
    latest.current = perform;
  });
  useEffect(() => () => controller.current?.abort(), []);

  const run = useCallback(async (...args: A): Promise<ActionResult<R>> => {
    if (running.current) return { ok: false };
    running.current = true;
    const current = new AbortController();
    controller.current = current;
    setPending(true);
    setError(null);
    try {
      const value = await latest.current(current.signal, ...args);
      return { ok: true, value };
    } catch (failure) {
      if (!current.signal.aborted && !isAbortError(failure) && !(failure instanceof ApiError && failure.isUnauthorized)) {
        setError(describeError(failure));
      }
      return { ok: false };
    } finally {
      running.current = false;
      if (!current.signal.aborted) setPending(false);
    }
  }, []);

  const clearError = useCallback(() => setError(null), []);
  return { run, pending, error, clearError };
}
