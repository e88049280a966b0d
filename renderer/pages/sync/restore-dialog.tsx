import { useState } from 'react';
import type { SyncRestoreResult } from '../../../shared/api-types.js';
import { useAction } from '../../app/hooks/use-action.js';
import { useApi } from '../../app/session.js';
import { Button } from '../../components/button.js';
import { ChoiceGroup } from '../../components/choice-group.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { TextField } from '../../components/text-field.js';
import { useToasts } from '../../components/toasts.js';
import { desktopBridge } from '../../desktop-bridge.js';

import { describeError } from '../../lib/messages.js';
import { describeRestore, formatVersionTime } from '../../lib/sync-history.js';

/** What to restore: a file or folder of a version ('' for the whole folder). */
export interface RestoreTarget {
  root: string;
  /** Relative to the folder, `/`-separated; '' is the whole folder. */
  path: string;
  kind: 'file' | 'dir';
  /** Unix seconds of the version (its time, as the timeline shows it). */
  createdAt: number;
}

type Conflict = 'beside' | 'replace';
type Destination = 'folder' | 'elsewhere';

export interface RestoreDialogProps {
  folderId: string;
  folderPath: string;
  target: RestoreTarget | null;
  onClose: () => void;
  onRestored?: (result: SyncRestoreResult) => void;
}

/**
 * Restore with the overwrite choice made explicit: files that differ on disk are kept and the version's copy
 * goes beside them (the default), or they are replaced; into the synced folder or another one (typed, or
 * picked in the desktop app). A restore never deletes. After it, a toast says what was written.
 */
export function RestoreDialog({ folderId, folderPath, target, onClose, onRestored }: RestoreDialogProps) {
  const api = useApi();
  const toasts = useToasts();
  const bridge = desktopBridge();
  const [conflict, setConflict] = useState<Conflict>('beside');
  const [destination, setDestination] = useState<Destination>('folder');
  const [elsewhere, setElsewhere] = useState('');
  const [pathProblem, setPathProblem] = useState<string | null>(null);
  const [pickProblem, setPickProblem] = useState<string | null>(null);
  const restore = useAction((signal, request: { to?: string; overwrite: boolean }) =>
    api.sync.restore(folderId, { root: target?.root ?? '', path: target?.path ?? '', ...request }, signal),
  );

  // Each opening starts from the safe choices (reset while rendering, as React advises for state that follows a prop).
  const [openedFor, setOpenedFor] = useState<RestoreTarget | null>(null);
  if (target !== openedFor) {
    setOpenedFor(target);
    if (target !== null) {
      setConflict('beside');
      setDestination('folder');
      setElsewhere('');
      setPathProblem(null);
      setPickProblem(null);
      if (restore.error !== null) restore.clearError();
    }
  }

  const what = target === null ? '' : target.path === '' ? 'the whole folder' : target.path;
  const version = target === null ? '' : formatVersionTime(target.createdAt);

  const pick = async () => {
    if (!bridge) return;
    setPickProblem(null);
    try {
      const picked = await bridge.pickFolder();
      if (picked) {
        setElsewhere(picked);
        setPathProblem(null);
      }
    } catch (error) {
      setPickProblem(`The desktop app could not open the folder picker: ${describeError(error)}`);
    }
  };

  const confirm = () => {
    const to = destination === 'elsewhere' ? elsewhere.trim() : undefined;
    if (to !== undefined && !(to.startsWith('/') || /^[A-Za-z]:[\\/]/.test(to) || to.startsWith('\\\\'))) {
      setPathProblem('Give the full path of a folder on this computer, such as /home/me/restored.');
      return;
    }
    void restore.run({ to, overwrite: conflict === 'replace' }).then((result) => {
      if (!result.ok) return;
      toasts.show(describeRestore(result.value));
      onRestored?.(result.value);
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
      onCancel={onClose}
      onConfirm={confirm}
    >
      <div className="stack restore-dialog">
        <p>
          <strong className="restore-what">{what}</strong> as it was in the version of {version}. Nothing is deleted: files that are not in the version stay as
          they are.
        </p>
        <ChoiceGroup<Conflict>
          legend="When a file on disk differs from the version"
          value={conflict}
          onChange={setConflict}
          options={[
            { value: 'beside', label: 'Keep both' },
            { value: 'replace', label: 'Replace the file on disk' },
          ]}
          hint={
            conflict === 'beside'
              ? 'Files that differ on disk are kept; the version’s copy is written beside them as “name (restored …).ext”.'
              : 'Files on disk that differ are replaced with the version’s copy. Their current content stays only in the newer versions of the history.'
          }
        />
        <ChoiceGroup<Destination>
          legend="Restore into"
          value={destination}
          onChange={(value) => {
            setDestination(value);
            setPathProblem(null);
          }}
          options={[
            { value: 'folder', label: 'The synced folder' },
            { value: 'elsewhere', label: 'Another folder…' },
          ]}
          hint={destination === 'folder' ? `Back where it was in ${folderPath}; the restore then syncs like any change.` : undefined}
        />
        {destination === 'elsewhere' ? (
          <div className="restore-elsewhere">
            <TextField
              label="Folder to restore into"
              hint={`${target?.path === '' ? 'The version’s files go directly into this folder.' : 'It goes into this folder under its own name.'} A new folder (it is made), an empty one, or one inside the synced folder; no symbolic link on the way.`}
              value={elsewhere}
              error={pathProblem ?? pickProblem}
              placeholder="/home/me/restored"
              spellCheck={false}
              autoComplete="off"
              onChange={(event) => {
                setElsewhere(event.target.value);
                setPathProblem(null);
              }}
            />
            {bridge ? (
              <Button variant="secondary" icon="folder" onClick={() => void pick()}>
                Choose…
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>
    </ConfirmDialog>
  );
}
