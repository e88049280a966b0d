import type { SyncFolderView } from '../../../shared/api-types.js';
import { useAction } from '../../app/hooks/use-action.js';
import { useApi } from '../../app/session.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { followOrigin, isFollowed } from '../../lib/followed-folders.js';
import { folderName } from '../../lib/sync-folders.js';

export interface RemoveFolderDialogProps {
  /** The folder to remove; the dialog is open while it is set. */
  folder: SyncFolderView | null;
  onCancel: () => void;
  onRemoved: (folder: SyncFolderView) => void;
}

/**
 * "Stop syncing?" (or "Stop following?" for a followed folder): says plainly that nothing is unpinned and
 * nothing on disk is touched (POST sync/rm).
 */
export function RemoveFolderDialog({ folder, onCancel, onRemoved }: RemoveFolderDialogProps) {
  const api = useApi();
  const remove = useAction((signal, id: string) => api.sync.remove(id, signal));
  const name = folder ? folderName(folder.path) : '';
  const followed = folder !== null && isFollowed(folder);
  return (
    <ConfirmDialog
      open={folder !== null}
      title={followed ? `Stop following into ${name}?` : `Stop syncing ${name}?`}
      confirmLabel="Remove"
      busyLabel="Removing…"
      busy={remove.pending}
      error={remove.error}
      onCancel={() => {
        remove.clearError();
        onCancel();
      }}
      onConfirm={() => {
        if (!folder) return;
        void remove.run(folder.id).then((result) => {
          if (result.ok) onRemoved(folder);
        });
      }}
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
    </ConfirmDialog>
  );
}
