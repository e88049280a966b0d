import { useCallback, useRef, useState } from 'react';
import { failureSentence } from '../../data/failure.js';
import { useRunFolderCommand, type FolderCommand } from '../../data/sync-actions.js';

export interface FolderCommands {
  /** Runs `command` on folder `id` (ignored while one runs on it); resolves whether it succeeded. */
  run: (id: string, command: FolderCommand) => Promise<boolean>;
  /** The command running on `id`, for its button's busy state. */
  pending: (id: string) => FolderCommand | null;
  /** Why the last command on `id` failed, as a sentence to show in the folder's row. */
  error: (id: string) => string | null;
}

/**
 * Pause, Resume, Rescan and Retry for many folders at once (the rows of the list): like a mutation hook,
 * but with the busy state and the error kept per folder, so each row shows its own beside its buttons.
 * The request cache learns the outcome from the command itself (data/sync-actions.ts).
 */
export function useFolderCommands(): FolderCommands {
  const runCommand = useRunFolderCommand();
  const [pending, setPending] = useState<Readonly<Record<string, FolderCommand>>>({});
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({});
  const running = useRef(new Set<string>());

  const run = useCallback(
    async (id: string, command: FolderCommand): Promise<boolean> => {
      if (running.current.has(id)) return false;
      running.current.add(id);
      setPending((current) => ({ ...current, [id]: command }));
      setErrors(({ [id]: _cleared, ...rest }) => rest);
      try {
        await runCommand(id, command);
        return true;
      } catch (failure) {
        const sentence = failureSentence(failure);
        if (sentence !== null) setErrors((current) => ({ ...current, [id]: sentence }));
        return false;
      } finally {
        running.current.delete(id);
        setPending(({ [id]: _finished, ...rest }) => rest);
      }
    },
    [runCommand],
  );

  return { run, pending: (id) => pending[id] ?? null, error: (id) => errors[id] ?? null };
}
