import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, isAbortError } from '../../api/api-error.js';
import { useApi } from '../../app/session.js';
import { describeError } from '../../lib/messages.js';

export type FolderCommand = 'pause' | 'resume' | 'rescan' | 'retry';

export interface FolderCommands {
  /** Runs `command` on folder `id` (ignored while one runs on it); resolves whether it succeeded. */
  run: (id: string, command: FolderCommand) => Promise<boolean>;
  /** The command running on `id`, for its button's busy state. */
  pending: (id: string) => FolderCommand | null;
  /** Why the last command on `id` failed, as a sentence to show in the folder's row. */
  error: (id: string) => string | null;
}

/**
 * Pause, Resume, Rescan and Retry for many folders at once (the rows of the list): like useAction, but
 * with the busy state and the error kept per folder, so each row shows its own beside its buttons.
 */
export function useFolderCommands(onDone?: (id: string, command: FolderCommand) => void): FolderCommands {
  const api = useApi();
  const [pending, setPending] = useState<Readonly<Record<string, FolderCommand>>>({});
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({});
  const running = useRef(new Set<string>());
  const controller = useRef(new AbortController());
  const done = useRef(onDone);
  useEffect(() => {
    done.current = onDone;
  });
  useEffect(() => {
    const current = new AbortController();
    controller.current = current;
    return () => current.abort();
  }, []);

  const run = useCallback(
    async (id: string, command: FolderCommand): Promise<boolean> => {
      if (running.current.has(id)) return false;
      running.current.add(id);
      const signal = controller.current.signal;
      setPending((current) => ({ ...current, [id]: command }));
      setErrors(({ [id]: _cleared, ...rest }) => rest);
      try {
        await api.sync[command](id, signal);
        done.current?.(id, command);
        return true;
      } catch (failure) {
        // The service got there first (it retries a stalled folder by itself): nothing left to retry is no failure.
        if (command === 'retry' && failure instanceof ApiError && failure.error === 'conflict') {
          done.current?.(id, command);
          return true;
        }
        if (!signal.aborted && !isAbortError(failure) && !(failure instanceof ApiError && failure.isUnauthorized)) {
          setErrors((current) => ({ ...current, [id]: describeError(failure) }));
        }
        return false;
      } finally {
        running.current.delete(id);
        if (!signal.aborted) setPending(({ [id]: _finished, ...rest }) => rest);
      }
    },
    [api],
  );

  return { run, pending: (id) => pending[id] ?? null, error: (id) => errors[id] ?? null };
}
