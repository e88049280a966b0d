import { useCallback, useEffect, useState } from 'react';
import type { IpnsRecordView } from '../../../shared/api-types.js';
import type { ListPage } from '../../api/core.js';
import { ApiError } from '../../api/api-error.js';
import type { NameBinding } from '../../api/names.js';
import { useAction } from '../../app/hooks/use-action.js';
import { useListPage } from '../../app/hooks/use-list-page.js';
import { useOpenContent } from '../../app/hooks/use-open-content.js';
import { useResource } from '../../app/hooks/use-resource.js';
import { useSearchInUrl } from '../../app/hooks/use-search-in-url.js';
import { useThrottledCallback } from '../../app/hooks/use-throttled-callback.js';
import { OpenContentControl } from '../../app/open-content-control.js';
import { PublicNameControl } from '../../app/public-name-control.js';
import { useApi } from '../../app/session.js';
import { Button } from '../../components/button.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { DataTable } from '../../components/data-table.js';
import { EmptyState } from '../../components/empty-state.js';
import { ListSearch } from '../../components/list-search.js';
import { Page } from '../../components/page.js';
import { Pagination } from '../../components/pagination.js';
import { useToasts } from '../../components/toasts.js';
import { useEvent } from '../../events/events-provider.js';
import { isRemovedEvent } from '../../events/service-events.js';
import { middleEllipsis } from '../../lib/format.js';
import { patchListPage, type ListChange } from '../../lib/live-list.js';
import { clampStart } from '../../lib/pagination.js';
import { CreateNameDialog } from './create-name-dialog.js';
import { ImportKeyDialog } from './import-key-dialog.js';
import { nameColumns } from './name-columns.js';
import { MAX_ALIAS, nameLabel } from './name-label.js';
import { NameRowActions } from './name-row-actions.js';
import { describeNameView, matchesNameSearch, nameSearch, nameSearchParams, nameSearchText, type NameSearch } from './name-search.js';
import { PublishNameDialog } from './publish-name-dialog.js';
import './names.css';

/** Live events that move rows reload the page at most this often. */
const LIVE_RELOAD_PAUSE_MS = 1000;
/** Search as you type: the service is asked once typing pauses this long (a stale request is aborted). */
const SEARCH_DEBOUNCE_MS = 150;

/** A page of names (or the one a search found) with the search it was loaded for. */
interface NamesView extends ListPage<IpnsRecordView> {
  search: NameSearch;
}

/**
 * The IPNS names of this account, newest first: create one from a CID (pinned too), publish a new CID to
 * one (a failure says why and offers Retry), edit its alias in place, import a key file, delete with a
 * confirmation, copy the name and open /ipns/<name>, make it public on the IPFS network (a switch that asks
 * first; a public name carries a Public mark). One search box finds a name by its IPNS name or its
 * alias, kept in the URL (`?name=` or `?alias=`: the desktop app's ipfs:// handler opens
 * `/names?name=<name>`). Rows follow `event: name`.
 */
export function NamesPage() {
  const api = useApi();
  const toasts = useToasts();
  const { position, setPosition, params, setFilters } = useListPage();
  const query = nameSearchText(params);
  const search = nameSearch(query);
  const writeSearch = useCallback((value: string) => setFilters(nameSearchParams(value)), [setFilters]);
  const { text, setText, writeQuery } = useSearchInUrl(query, writeSearch, SEARCH_DEBOUNCE_MS);

  // The page remembers what it was loaded for, so the words above it describe the rows shown.
  const names = useResource(
    async (signal): Promise<NamesView> => {
      if (search.kind === 'none') return { ...(await api.names.list({ start: position.start, limit: position.limit }, signal)), search };
      try {
        const found = search.kind === 'name' ? await api.names.get(search.name, signal) : await api.names.byAlias(search.alias, signal);
        return { items: [found], total: 1, search };
      } catch (error) {
        if (error instanceof ApiError && error.error === 'not_found') return { items: [], total: 0, search };
        throw error;
      }
    },
    [api, query, position.start, position.limit],
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
    const matches = (name: IpnsRecordView) => matchesNameSearch(search, name);
    if (patchListPage<IpnsRecordView, NamesView>(names.data, change, (name) => name.name, matches).reload) reloadSoon();
    names.update((page) => patchListPage<IpnsRecordView, NamesView>(page, change, (name) => name.name, matches).page);
  });

  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [publishing, setPublishing] = useState<IpnsRecordView | null>(null);
  const [deleting, setDeleting] = useState<IpnsRecordView | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [fresh, setFresh] = useState<string | null>(null);
  const opener = useOpenContent();

  const saveAlias = useAction((signal, name: string, alias: string) => api.names.setAlias(name, alias, signal));
  const remove = useAction((signal, name: string) => api.names.remove(name, signal));

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

  const clearSearch = () => {
    setText('');
    writeQuery('');
  };

  /** After create or import: the new name leads the first page; go there (without a search) and mark it. */
  const showNew = (binding: NameBinding, verb: string) => {
    setFresh(binding.name);
    toasts.show(`${verb} ${middleEllipsis(binding.name, 12, 6)}, pointing at ${middleEllipsis(binding.value)}.`);
    if (search.kind !== 'none') clearSearch();
    if (position.start !== 0) setPosition({ start: 0, limit: position.limit });
    else if (search.kind === 'none') names.reload();
  };

  const searching = search.kind !== 'none';
  // An account with no name at all: the empty table says what to do; a search box and pages would be noise.
  const nothingYet = !searching && text === '' && names.data !== undefined && total === 0 && position.start === 0;
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
      {nothingYet ? null : (
        <div className="list-toolbar">
          <ListSearch label="Search names by IPNS name or alias" value={text} onChange={setText} onSubmit={() => writeQuery(text)} maxLength={MAX_ALIAS} />
          <p className="muted list-summary" role="status" data-testid="names-summary">
            {names.data ? describeNameView(names.data.search, total) : ''}
          </p>
          {searching && total > 0 ? (
            <Button size="sm" variant="ghost" icon="close" onClick={clearSearch}>
              Show all names
            </Button>
          ) : null}
        </div>
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
          publicSwitch: (name) => (
            <PublicNameControl
              name={name.name}
              label={nameLabel(name)}
              isPublic={name.public}
              onChanged={(view) => patchRow(view.name, { public: view.public })}
            />
          ),
        })}
        rows={names.data?.items}
        rowKey={(name) => name.name}
        loading={names.loading}
        waiting={names.waiting}
        error={names.error}
        onRetry={names.reload}
        rowClassName={(name) => (name.name === fresh ? 'is-new' : undefined)}
        empty={
          searching ? (
            <EmptyState icon="search" title="No names match" actions={<Button onClick={clearSearch}>Clear search</Button>}>
              {describeNameView(names.data?.search ?? search, 0)}
            </EmptyState>
          ) : (
            <EmptyState icon="names" title="No names yet" actions={pageActions}>
              Create a name for content you will update (a site, a folder), or import a key you made with Kubo or libp2p. Sync folders get a name of their own.
            </EmptyState>
          )
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
      {nothingYet || searching || !names.data ? null : <Pagination label="Names" total={total} {...position} onChange={setPosition} />}
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
