import { useState } from 'react';
import type { SyncAddResult } from '../../../shared/api-types.js';
import { ApiError, isAbortError } from '../../api/api-error.js';
import { useAction, type ActionResult } from '../../app/hooks/use-action.js';
import { useApi } from '../../app/session.js';
import { describeError } from '../../lib/messages.js';
import { addFailure } from '../../lib/sync-folders.js';

/** A folder the desktop app located (a drop or the picker): its name for messages, its absolute path for the service. */
export interface FolderToAdd {
  name: string;
  path: string;
}

export interface AddFolders {
  /**
   * Starts syncing each folder at once (sync/add?wait=false); the ones refused are said in `error`, after
   * `alsoSay` (what went wrong before asking the service, such as a dropped item the desktop app could not locate).
   */
  add: (folders: readonly FolderToAdd[], alsoSay?: string | null) => Promise<ActionResult<SyncAddResult[]>>;
  pending: boolean;
  /** Why folders were not added, one line each, for the InlineError beside the drop zone. */
  error: string | null;
  /** A problem found before asking the service (the desktop app could not locate a drop, the picker failed). */
  setError: (message: string | null) => void;
}

/**
 * Adding folders located by the desktop app. Each folder is its own request, so one refused folder (not
 * a folder, already synced, overlapping another) does not stop the others of the same drop.
 */
export function useAddFolders(onAdded: (added: SyncAddResult[]) => void): AddFolders {
  const api = useApi();
  const [error, setError] = useState<string | null>(null);
  const action = useAction(async (signal, folders: readonly FolderToAdd[]) => {
    const added: SyncAddResult[] = [];
    const refused: string[] = [];
    for (const folder of folders) {
      try {
        added.push(await api.sync.add({ path: folder.path }, { wait: false }, signal));
      } catch (failure) {
        // Leaving the page, or signed out: nothing to tell here.
        if (isAbortError(failure) || (failure instanceof ApiError && failure.isUnauthorized)) throw failure;
        refused.push(addFailure(folder.name, describeError(failure)));
      }
    }
    return { added, refused };
  });

  const add = async (folders: readonly FolderToAdd[], alsoSay: string | null = null): Promise<ActionResult<SyncAddResult[]>> => {
    setError(alsoSay);
    const result = await action.run(folders);
    if (!result.ok) return result;
    if (result.value.added.length > 0) onAdded(result.value.added);
    const problems = [...result.value.refused, alsoSay].filter((problem) => problem !== null);
    setError(problems.length > 0 ? problems.join('\n') : null);
    return { ok: true, value: result.value.added };
  };
  return { add, pending: action.pending, error: error ?? action.error, setError };
}
