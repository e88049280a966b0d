import { useState } from 'react';
import type { SyncAddResult } from '../../../shared/api-types.js';
import type { MutationResult } from '../../data/api-mutation.js';
import { useAddSyncFolders, type FolderToAdd } from '../../data/sync-actions.js';

export interface AddFolders {
  /**
   * Starts syncing each folder at once (sync/add?wait=false); the ones refused are said in `error`, after
   * `alsoSay` (what went wrong before asking the service, such as a dropped item the desktop app could not locate).
   */
  add: (folders: readonly FolderToAdd[], alsoSay?: string | null) => Promise<MutationResult<SyncAddResult[]>>;
  pending: boolean;
  /** Why folders were not added, one line each, for the InlineError beside the drop zone. */
  error: string | null;
  /** A problem found before asking the service (the desktop app could not locate a drop, the picker failed). */
  setError: (message: string | null) => void;
}

/**
 * Adding folders located by the desktop app: the refusals of the service, folder by folder, said together
 * with what the page found wrong before asking it. The list loads again by itself (the request cache).
 */
export function useAddFolders(onAdded: (added: SyncAddResult[]) => void): AddFolders {
  const [error, setError] = useState<string | null>(null);
  const action = useAddSyncFolders();

  const add = async (folders: readonly FolderToAdd[], alsoSay: string | null = null): Promise<MutationResult<SyncAddResult[]>> => {
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
