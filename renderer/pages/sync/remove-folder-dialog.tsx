import type { SyncFolderView } from '../../../shared/api-types.js';
import { ActionConfirmDialog } from '../../app/action-confirm-dialog.js';
import { useRemoveSyncFolder } from '../../data/sync-actions.js';
import { followOrigin, isFollowed } from '../../lib/followed-folders.js';
import { folderName } from '../../lib/sync-folders.js';

export interface RemoveFolderDialogProps {
  /** The folder to remove; the dialog is open while it is set. */
  folder: SyncFolderView | null;
  /** The folder is no longer synced (the list has dropped it): what the page says or does about it. */
  onRemoved: (folder: SyncFolderView) => void;
  onClose: () => void;
}

/**
 * "Stop syncing?" (or "Stop following?" for a followed folder): says plainly that nothing is unpinned and
 * nothing on disk is touched (POST sync/rm); a refusal stays in the dialog.
 */
export function RemoveFolderDialog({ folder, onRemoved, onClose }: RemoveFolderDialogProps) {
  const remove = useRemoveSyncFolder();
  const name = folder ? folderName(folder.path) : '';
  const followed = folder !== null && isFollowed(folder);
  return (
    <ActionConfirmDialog
      target={folder}
      action={remove}
      onDone={(_result, removed) => onRemoved(removed)}
      onClose={onClose}
      title={followed ? `Stop following into ${name}?` : `Stop syncing ${name}?`}
      confirmLabel="Remove"
      busyLabel="Removing…"
    >
      {followed && folder ? (
        <>
          <p>
            Pinfold stops fetching new versions from <span className="mono">{followOrigin(folder)}</span> into <span className="mono">{folder.path}</span>.
          </p>
          <p>
            <strong>Nothing is deleted.</strong> The files in the folder stay as they are, and the version it holds stays pinned; unpin it on the Pins page if
            you no longer need it.
          </p>
        </>
      ) : (
        <>
          <p>
            Pinfold stops watching <span className="mono">{folder?.path}</span>: later changes are no longer pinned or published.
          </p>
          <p>
            <strong>Nothing is unpinned.</strong> The folder's last root stays pinned
            {folder?.ipns_name ? ' and its IPNS name keeps pointing at it' : ''}; unpin it on the Pins page if you no longer need it. The files on this computer
            are not touched.
          </p>
        </>
      )}
    </ActionConfirmDialog>
  );
}
