import { useState } from 'react';
import type { SyncDiscardResult, SyncFolderDetail, SyncLocalChange } from '../../../shared/api-types.js';
import { ActionConfirmDialog } from '../../app/action-confirm-dialog.js';
import { Button } from '../../components/button.js';
import { Section } from '../../components/section.js';
import { useToasts } from '../../components/toasts.js';
import { useDiscardLocalChanges } from '../../data/sync-actions.js';
import { localChangeKind, localChangesCount } from '../../lib/followed-folders.js';
import { formatCount } from '../../lib/format.js';

/**
 * Where a followed folder differs from the version it holds (never overwritten: the incoming file is
 * written beside): each path, what happened to it here, and the copies written beside it. "Discard local
 * changes" writes the version over them after a confirmation that says the local files go to the trash
 * (the page then loads the folder again: the request cache).
 */
export function LocalChanges({ folder }: { folder: SyncFolderDetail }) {
  const toasts = useToasts();
  const [confirming, setConfirming] = useState(false);
  const discard = useDiscardLocalChanges();
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
        // A list, not a table: long paths and the copies' longer names wrap in full at any width.
        <ul className="local-changes" aria-label="Files changed here">
          {changes.map((change) => (
            <li key={change.path} className="local-change" data-testid="local-change">
              <span className="local-change-path mono">{change.path}</span>
              <span className={`badge local-change-kind is-${change.change}`}>{localChangeKind(change.change)}</span>
              <BesideCopies change={change} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted" data-testid="no-local-changes">
          None: the folder holds exactly the version it follows.
        </p>
      )}
      <ActionConfirmDialog
        target={confirming ? folder : null}
        action={discard}
        onDone={(result) => toasts.show(discardedMessage(result))}
        onClose={() => setConfirming(false)}
        title="Discard local changes?"
        confirmLabel="Discard local changes"
        busyLabel="Discarding…"
      >
        <p>
          The version this folder follows is written over the {localChangesCount(changes.length)}
          {copies > 0 ? `, and the ${formatCount(copies)} ${copies === 1 ? 'copy' : 'copies'} written beside them are removed` : ''}.
        </p>
        <p>
          <strong>The local files are moved to the trash</strong>, not deleted: you can take them back from there.
        </p>
      </ActionConfirmDialog>
    </Section>
  );
}

function discardedMessage(result: SyncDiscardResult): string {
  const left = result.local_changes.length;
  return `Wrote ${formatCount(result.written)} ${result.written === 1 ? 'file' : 'files'} of the followed version; ${formatCount(result.trashed)} moved to the trash.${left > 0 ? ` ${localChangesCount(left)} remain.` : ''}`;
}

function BesideCopies({ change }: { change: SyncLocalChange }) {
  if (change.beside.length === 0) {
    return <span className="local-change-beside muted">{change.change === 'added' ? 'Only on this computer' : 'No incoming copy beside it'}</span>;
  }
  return (
    <span className="local-change-beside">
      <span className="muted">Incoming {change.beside.length === 1 ? 'copy' : 'copies'} beside it: </span>
      {change.beside.map((path, index) => (
        <span key={path}>
          {index > 0 ? ', ' : null}
          <span className="mono">{path}</span>
        </span>
      ))}
    </span>
  );
}
