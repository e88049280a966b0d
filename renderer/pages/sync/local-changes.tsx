import { useState } from 'react';
import type { SyncFolderDetail, SyncLocalChange } from '../../../shared/api-types.js';
import { useAction } from '../../app/hooks/use-action.js';
import { useApi, useSession } from '../../app/session.js';
import { Button } from '../../components/button.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { DataTable } from '../../components/data-table.js';
import { Section } from '../../components/section.js';
import { useToasts } from '../../components/toasts.js';
import { localChangeKind, localChangesCount } from '../../lib/followed-folders.js';
import { formatCount } from '../../lib/format.js';

export interface LocalChangesProps {
  folder: SyncFolderDetail;
  /** After a discard: the page loads the folder again. */
  onDiscarded: () => void;
}

/**
 * Where a followed folder differs from the version it holds (never overwritten: the incoming file is
 * written beside): each path, what happened to it here, and the copies written beside it. "Discard local
 * changes" writes the version over them after a confirmation that says the local files go to the trash.
 */
export function LocalChanges({ folder, onDiscarded }: LocalChangesProps) {
  const api = useApi();
  const { credentials } = useSession();
  const toasts = useToasts();
  const [confirming, setConfirming] = useState(false);
  const discard = useAction((signal, id: string) => api.sync.discard(credentials, id, signal));
  const changes = folder.local_changes;
  const copies = changes.reduce((sum, change) => sum + change.beside.length, 0);

  return (
    <Section
      title="Local changes"
      description={
        changes.length > 0
          ? 'Files changed, added or deleted on this computer. Pinfold never overwrites them: the incoming version is written beside each one.'
          : 'Files changed here are never overwritten: they would be listed here, with the incoming version written beside them.'
      }
      actions={
        changes.length > 0 ? (
          <Button variant="danger" icon="trash" onClick={() => setConfirming(true)}>
            Discard local changes
          </Button>
        ) : undefined
      }
    >
      {changes.length > 0 ? (
        <DataTable
          label="Local changes"
          rows={changes}
          rowKey={(change) => change.path}
          empty={null}
          columns={[
            { key: 'path', header: 'File', width: '45%', cell: (change) => <span className="mono wrap-anywhere">{change.path}</span> },
            { key: 'change', header: 'Change', width: '140px', cell: (change) => <span className="nowrap">{localChangeKind(change.change)}</span> },
            { key: 'beside', header: 'Incoming copy beside it', cell: (change) => <BesideCopies change={change} /> },
          ]}
        />
      ) : (
        <p className="muted" data-testid="no-local-changes">
          None: the folder holds exactly the version it follows.
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        title="Discard local changes?"
        confirmLabel="Discard local changes"
        busyLabel="Discarding…"
        busy={discard.pending}
        error={discard.error}
        onCancel={() => {
          discard.clearError();
          setConfirming(false);
        }}
        onConfirm={() => {
          void discard.run(folder.id).then((result) => {
            if (!result.ok) return;
            setConfirming(false);
            const left = result.value.local_changes.length;
            toasts.show(
              `Wrote ${formatCount(result.value.written)} ${result.value.written === 1 ? 'file' : 'files'} of the followed version; ${formatCount(result.value.trashed)} moved to the trash.${left > 0 ? ` ${localChangesCount(left)} remain.` : ''}`,
            );
            onDiscarded();
          });
        }}
      >
        <p>
          The version this folder follows is written over the {localChangesCount(changes.length)}
          {copies > 0 ? `, and the ${formatCount(copies)} ${copies === 1 ? 'copy' : 'copies'} written beside them are removed` : ''}.
        </p>
        <p>
          <strong>The local files are moved to the trash</strong>, not deleted: you can take them back from there.
        </p>
      </ConfirmDialog>
    </Section>
  );
}

function BesideCopies({ change }: { change: SyncLocalChange }) {
  if (change.beside.length === 0) return <span className="muted">{change.change === 'added' ? 'None: only here' : 'None'}</span>;
  return (
    <ul className="plain-list">
      {change.beside.map((path) => (
        <li key={path} className="mono wrap-anywhere">
          {path}
        </li>
      ))}
    </ul>
  );
}
