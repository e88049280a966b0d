/**
 * A user action that changes something on the service (unpin, rename, create a key), over TanStack
 * Query's mutations: `pending` for the control's busy state, `error` as a sentence beside it (none for an
 * unreachable service or a 401: the banner and the session say those), and the cache brought up to date
 * by the area module's `onSuccess` before `run` resolves, so the page only says what happened.
 *
 *   const unpin = useUnpin();
 *   <Button busy={unpin.pending} onClick={() => void unpin.run(cid)}>Unpin</Button>
 *   <InlineError message={unpin.error} />
 */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef } from 'react';
import { ApiError } from '../api/api-error.js';
import type { ApiClient } from '../api/client.js';
import { failureSentence } from './failure.js';
import { useSessionApi } from './session-api.js';

export type MutationResult<R> = { ok: true; value: R } | { ok: false };

export interface ApiMutation<V, R> {
  /** Runs the action (ignored while it already runs); resolves `{ok: true, value}` or `{ok: false}` (then `error` says why). */
  run: (variables: V) => Promise<MutationResult<R>>;
  pending: boolean;
  /** Why the last run failed, as a sentence to show next to the control that started it. */
  error: string | null;
  /** The request parameter the last failure names (a `bad_input`'s `param`), so the page can put `error` beside that field. */
  errorParam: string | null;
  clearError: () => void;
}

export interface ApiMutationInit<V, R> {
  perform: (api: ApiClient, variables: V) => Promise<R>;
  /** What the cache learns from a success (a row patched, lists loaded again); runs even if the page is gone by then. */
  onSuccess?: (client: QueryClient, result: R, variables: V) => void;
}

export function useApiMutation<V, R>({ perform, onSuccess }: ApiMutationInit<V, R>): ApiMutation<V, R> {
  const api = useSessionApi();
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: (variables: V) => perform(api, variables),
    onSuccess: (result, variables) => onSuccess?.(client, result, variables),
  });
  const { mutateAsync, reset, isPending, error } = mutation;
  const running = useRef(false);
  const run = useCallback(
    async (variables: V): Promise<MutationResult<R>> => {
      if (running.current) return { ok: false };
      running.current = true;
      try {
        return { ok: true, value: await mutateAsync(variables) };
      } catch {
        return { ok: false };
      } finally {
        running.current = false;
      }
    },
    [mutateAsync],
  );
  const sentence = useMemo(() => failureSentence(error), [error]);
  const errorParam = error instanceof ApiError ? (error.detail.param ?? null) : null;
  return { run, pending: isPending, error: sentence, errorParam, clearError: reset };
}
