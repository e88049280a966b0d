import { Button } from '../../components/button.js';
import { ChoiceGroup } from '../../components/choice-group.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { TextField } from '../../components/text-field.js';
import { useToasts } from '../../components/toasts.js';
import { useRestoreVersion } from '../../data/sync-versions.js';
import { describeRestore, formatVersionTime } from '../../lib/sync-history.js';
import { useRestoreChoices, type RestoreChoices, type RestoreConflict, type RestoreDestination } from './use-restore-choices.js';

/** What to restore: a file or folder of a version ('' for the whole folder). */
export interface RestoreTarget {
  root: string;
  /** Relative to the folder, `/`-separated; '' is the whole folder. */
  path: string;
  kind: 'file' | 'dir';
  /** Unix seconds of the version (its time, as the timeline shows it). */
  createdAt: number;
}

export interface RestoreDialogProps {
  folderId: string;
  folderPath: string;
  target: RestoreTarget | null;
  onClose: () => void;
}

/**
 * Restore with the overwrite choice made explicit: files that differ on disk are kept and the version's copy
 * goes beside them (the default), or they are replaced; into the synced folder or another one (typed, or
 * picked in the desktop app). A restore never deletes. After it, a toast says what was written (and the
 * folder's page loads again: the request cache).
 */
export function RestoreDialog({ folderId, folderPath, target, onClose }: RestoreDialogProps) {
  const toasts = useToasts();
  const choices = useRestoreChoices(target);
  const restore = useRestoreVersion();
  const what = target === null ? '' : target.path === '' ? 'the whole folder' : target.path;
  const version = target === null ? '' : formatVersionTime(target.createdAt);

  const confirm = () => {
    const where = choices.read();
    if (where === null || target === null) return;
    void restore.run({ id: folderId, root: target.root, path: target.path, ...where }).then((result) => {
      if (!result.ok) return;
      toasts.show(describeRestore(result.value));
      onClose();
    });
  };

  return (
    <ConfirmDialog
      open={target !== null}
      title={target?.path === '' ? 'Restore the whole folder to this version?' : `Restore ${target?.kind === 'dir' ? 'this folder' : 'this file'}?`}
      confirmLabel="Restore"
      busyLabel="Restoring…"
      tone="primary"
      busy={restore.pending}
      error={restore.error}
      onCancel={() => {
        restore.clearError();
        onClose();
      }}
      onConfirm={confirm}
    >
      <div className="stack restore-dialog">
        <p>
          <strong className="restore-what">{what}</strong> as it was in the version of {version}. Nothing is deleted: files that are not in the version stay as
          they are.
        </p>
        <ChoiceGroup<RestoreConflict>
          legend="When a file on disk differs from the version"
          value={choices.conflict}
          onChange={choices.setConflict}
          options={[
            { value: 'beside', label: 'Keep both' },
            { value: 'replace', label: 'Replace the file on disk' },
          ]}
          hint={
            choices.conflict === 'beside'
              ? 'Files that differ on disk are kept; the version’s copy is written beside them as “name (restored …).ext”.'
              : 'Files on disk that differ are replaced with the version’s copy. Their current content stays only in the newer versions of the history.'
          }
        />
        <RestoreInto choices={choices} folderPath={folderPath} wholeFolder={target?.path === ''} />
      </div>
    </ConfirmDialog>
  );
}

/** Into the synced folder, or another one: its path typed, or chosen with the desktop app's picker. */
function RestoreInto({ choices, folderPath, wholeFolder }: { choices: RestoreChoices; folderPath: string; wholeFolder: boolean }) {
  return (
    <>
      <ChoiceGroup<RestoreDestination>
        legend="Restore into"
        value={choices.destination}
        onChange={choices.setDestination}
        options={[
          { value: 'folder', label: 'The synced folder' },
          { value: 'elsewhere', label: 'Another folder…' },
        ]}
        hint={choices.destination === 'folder' ? `Back where it was in ${folderPath}; the restore then syncs like any change.` : undefined}
      />
      {choices.destination === 'elsewhere' ? (
        <div className="restore-elsewhere">
          <TextField
            label="Folder to restore into"
            hint={`${wholeFolder ? 'The version’s files go directly into this folder.' : 'It goes into this folder under its own name.'} A new folder (it is made), an empty one, or one inside the synced folder; no symbolic link on the way.`}
            value={choices.elsewhere}
            error={choices.problem}
            placeholder="/home/me/restored"
            spellCheck={false}
            autoComplete="off"
            onChange={(event) => choices.setElsewhere(event.target.value)}
          />
          {choices.pick ? (
            <Button variant="secondary" icon="folder" onClick={() => void choices.pick?.()}>
              Choose…
            </Button>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
