import { useEffect, useState } from 'react';
import type { IpnsRecordView } from '../../../shared/api-types.js';
import type { NameBinding } from '../../api/names.js';
import { useAction } from '../../app/hooks/use-action.js';
import { useListPage } from '../../app/hooks/use-list-page.js';
import { useOpenContent } from '../../app/hooks/use-open-content.js';
import { useResource } from '../../app/hooks/use-resource.js';
import { useThrottledCallback } from '../../app/hooks/use-throttled-callback.js';
import { OpenContentControl } from '../../app/open-content-control.js';
import { useApi, useSession } from '../../app/session.js';
import { Button } from '../../components/button.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { DataTable } from '../../components/data-table.js';
import { EmptyState } from '../../components/empty-state.js';
import { Page } from '../../components/page.js';
import { Pagination } from '../../components/pagination.js';
import { useToasts } from '../../components/toasts.js';
import { useEvent } from '../../events/events-provider.js';
import { isRemovedEvent } from '../../events/service-events.js';
import { formatCount, middleEllipsis } from '../../lib/format.js';
import { patchListPage, type ListChange } from '../../lib/live-list.js';
import { clampStart } from '../../lib/pagination.js';
import { CreateNameDialog } from './create-name-dialog.js';
import { ImportKeyDialog } from './import-key-dialog.js';
import { nameColumns } from './name-columns.js';
import { nameLabel } from './name-label.js';
import { NameRowActions } from './name-row-actions.js';
import { PublishNameDialog } from './publish-name-dialog.js';
import './names.css';

/** Live events that move rows reload the page at most this often. */
const LIVE_RELOAD_PAUSE_MS = 1000;

/**
 * The IPNS names of this account, newest first: create one from a CID (pinned too), publish a new CID to
 * one (a failure says why and offers Retry), edit its alias in place, import a key file, delete with a
 * confirmation, copy the name and open /ipns/<name>. Rows follow `event: name`.
 */
export function NamesPage() {
  const api = useApi();
  const { credentials } = useSession();
  const toasts = useToasts();
  const { position, setPosition } = useListPage();
  const names = useResource(
    (signal) => api.names.list(credentials, { start: position.start, limit: position.limit }, signal),
    [api, credentials, position.start, position.limit],
  );
  const total = names.data?.total ?? 0;

  // A page past the end (its last names were deleted): go to the new last page.
  useEffect(() => {
    if (names.loading || !names.data || names.data.items.length > 0 || position.start === 0) return;
    setPosition({ start: clampStart(position.start, position.limit, total), limit: position.limit });
  }, [names.loading, names.data, position, total, setPosition]);

  const reloadSoon = useThrottledCallback(names.reload, LIVE_RELOAD_PAUSE_MS);
  useEvent('name', (payload) => {
    const change: ListChange<IpnsRecordView> = isRemovedEvent(payload) ? { kind: 'removed', key: payload.name } : { kind: 'changed', record: payload };
    if (patchListPage(names.data, change, (name) => name.name).reload) reloadSoon();
    names.update((page) => patchListPage(page, change, (name) => name.name).page);
  });

  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [publishing, setPublishing] = useState<IpnsRecordView | null>(null);
  const [deleting, setDeleting] = useState<IpnsRecordView | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [fresh, setFresh] = useState<string | null>(null);
  const opener = useOpenContent();

  const saveAlias = useAction((signal, name: string, alias: string) => api.names.setAlias(credentials, name, alias, signal));
  const remove = useAction((signal, name: string) => api.names.remove(credentials, name, signal));

  const patchRow = (name: string, patch: Partial<IpnsRecordView>) =>
    names.update((page) => page && { ...page, items: page.items.map((row) => (row.name === name ? { ...row, ...patch } : row)) });

  const onAlias = async (name: IpnsRecordView, alias: string) => {
    const wanted = alias.trim();
    if (wanted === name.alias) {
      setEditing(null);
      return;
    }
    const result = await saveAlias.run(name.name, wanted);
    if (!result.ok) return;
    patchRow(name.name, { alias: wanted });
    setEditing(null);
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    const result = await remove.run(deleting.name);
    if (!result.ok) return;
    toasts.show(`Deleted ${nameLabel(deleting)}: the name and its key are gone from this service.`);
    setDeleting(null);
    names.reload();
  };

  /** After create or import: the new name leads the first page; go there and mark it. */
  const showNew = (binding: NameBinding, verb: string) => {
    setFresh(binding.name);
    toasts.show(`${verb} ${middleEllipsis(binding.name, 12, 6)}, pointing at ${middleEllipsis(binding.value)}.`);
    if (position.start !== 0) setPosition({ start: 0, limit: position.limit });
    else names.reload();
  };

  const empty = names.data !== undefined && total === 0 && position.start === 0;
  const pageActions = (
    <>
      <Button icon="upload" onClick={() => setImporting(true)}>
        Import key
      </Button>
      <Button variant="primary" icon="plus" onClick={() => setCreating(true)}>
        Create name
      </Button>
    </>
  );

  return (
    <Page
      title="Names"
      description="IPNS names: stable addresses that you point at new content when it changes. The list updates by itself."
      actions={pageActions}
    >
      {empty || !names.data ? null : (
        <p className="muted names-summary" role="status" data-testid="names-summary">
          {`${formatCount(total)} ${total === 1 ? 'name' : 'names'}.`}
        </p>
      )}
      <DataTable
        label="Names"
        columns={nameColumns({
          editing,
          aliasBusy: saveAlias.pending,
          aliasError: saveAlias.error,
          onEdit: (name) => {
            saveAlias.clearError();
            setEditing(name.name);
          },
          onCancelEdit: () => setEditing(null),
          onSaveAlias: (name, alias) => void onAlias(name, alias),
          failureFor: (name) => (opener.failure?.key === name.name ? opener.failure.message : null),
        })}
        rows={names.data?.items}
        rowKey={(name) => name.name}
        loading={names.loading}
        waiting={names.waiting}
        error={names.error}
        onRetry={names.reload}
        rowClassName={(name) => (name.name === fresh ? 'is-new' : undefined)}
        empty={
          <EmptyState icon="names" title="No names yet" actions={pageActions}>
            Create a name for content you will update (a site, a folder), or import a key you made with Kubo or libp2p. Sync folders get a name of their own.
          </EmptyState>
        }
        rowActions={(name) => (
          <NameRowActions
            name={name}
            open={<OpenContentControl opener={opener} name={nameLabel(name)} target={{ key: name.name, path: `/ipns/${name.name}`, label: name.alias }} />}
            onPublish={() => setPublishing(name)}
            onDelete={() => {
              remove.clearError();
              setDeleting(name);
            }}
          />
        )}
      />
      {empty || !names.data ? null : <Pagination label="Names" total={total} {...position} onChange={setPosition} />}
      <CreateNameDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(binding) => {
          setCreating(false);
          showNew(binding, 'Created');
        }}
      />
      <ImportKeyDialog
        open={importing}
        onClose={() => setImporting(false)}
        onImported={(binding) => {
          setImporting(false);
          showNew(binding, 'Imported');
        }}
      />
      <PublishNameDialog
        target={publishing}
        onClose={() => setPublishing(null)}
        onPublished={(binding) => {
          const target = publishing;
          setPublishing(null);
          patchRow(binding.name, { value: binding.value, publish_at: Math.floor(Date.now() / 1000) });
          toasts.show(`Published: ${target ? nameLabel(target) : middleEllipsis(binding.name)} now points at ${middleEllipsis(binding.value)}.`);
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting ? nameLabel(deleting) : ''}?`}
        confirmLabel="Delete"
        busyLabel="Deleting…"
        busy={remove.pending}
        error={remove.error}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
      >
        <p>
          The name stops resolving on this service, and its private key is deleted here. This cannot be undone: to publish to this name again you need the key
          (import it again if you keep a copy).
        </p>
        <p className="muted">The content it points at stays pinned.</p>
      </ConfirmDialog>
    </Page>
  );
}
