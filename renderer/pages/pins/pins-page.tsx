import { useCallback, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { PIN_STATUSES, type PinRecord, type PinStatus } from '../../../shared/api-types.js';
import type { ListPage } from '../../api/core.js';
import { isPinStatus } from '../../api/pins.js';
import { useAction } from '../../app/hooks/use-action.js';
import { useListPage } from '../../app/hooks/use-list-page.js';
import { useOpenContent } from '../../app/hooks/use-open-content.js';
import { useResource } from '../../app/hooks/use-resource.js';
import { useSearchInUrl } from '../../app/hooks/use-search-in-url.js';
import { useThrottledCallback } from '../../app/hooks/use-throttled-callback.js';
import { OpenContentControl } from '../../app/open-content-control.js';
import { useApi } from '../../app/session.js';
import { Button } from '../../components/button.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { DataTable } from '../../components/data-table.js';
import { EmptyState } from '../../components/empty-state.js';
import { Page } from '../../components/page.js';
import { Pagination } from '../../components/pagination.js';
import { useToasts } from '../../components/toasts.js';
import { isRemovedEvent } from '../../events/service-events.js';
import { useEvent } from '../../events/events-provider.js';
import { patchListPage, type ListChange } from '../../lib/live-list.js';
import { contentPath } from '../../lib/gateway-links.js';
import { clampStart } from '../../lib/pagination.js';
import { AddPinDialog } from './add-pin-dialog.js';
import { pinColumns } from './pin-columns.js';
import { pinLabel } from './pin-label.js';
import { PinFilters } from './pin-filters.js';
import { PinRowActions } from './pin-row-actions.js';
import { describePinView, pinSearch, pinSearchParams, pinSearchText, searchFilters, type PinSearch } from './pin-search.js';
import './pins.css';

/** A page of the list with the search and status it was loaded for. */
interface PinsView extends ListPage<PinRecord> {
  search: PinSearch;
  status: PinStatus | undefined;
}

/** Search as you type: the list is asked once typing pauses this long (a stale request is aborted). */
export const SEARCH_DEBOUNCE_MS = 100;
/** Live events that move rows reload the page at most this often. */
const LIVE_RELOAD_PAUSE_MS = 1000;

/**
 * The pins of this account, newest first, as the API pages them (fast at 100,000: `start` is cheap from
 * either end): a status filter and one search box (a CID, or part of a name) kept in the URL with the
 * page (`?cid=` or `?name=`: the desktop app's ipfs:// handler opens `/pins?cid=<cid>`), Add pin, inline rename, Unpin with a confirmation, Pin again / Retry, copy and open. Rows follow
 * `event: pin` (pinning → pinned) without a reload.
 */
export function PinsPage() {
  const api = useApi();
  const toasts = useToasts();
  const { position, setPosition, params, setFilter, setFilters } = useListPage();
  const statusParam = params.get('status');
  const status: PinStatus | undefined = isPinStatus(statusParam) ? statusParam : undefined;
  const query = pinSearchText(params);
  const search = pinSearch(query);

  const writeSearch = useCallback((value: string) => setFilters(pinSearchParams(value)), [setFilters]);
  const { text, setText, writeQuery } = useSearchInUrl(query, writeSearch, SEARCH_DEBOUNCE_MS);

  const filters = searchFilters(search);
  // The page remembers what it was loaded for, so the words above it describe the rows shown, not a query still loading.
  const pins = useResource(
    async (signal): Promise<PinsView> => ({
      ...(await api.pins.list({ status, ...filters, start: position.start, limit: position.limit }, signal)),
      search,
      status,
    }),
    [api, status, query, position.start, position.limit],
  );

  // A page past the end (its last rows were removed): go to the new last page.
  const total = pins.data?.total ?? 0;
  useEffect(() => {
    if (pins.loading || !pins.data || pins.data.items.length > 0 || position.start === 0) return;
    setPosition({ start: clampStart(position.start, position.limit, total), limit: position.limit });
  }, [pins.loading, pins.data, position, total, setPosition]);

  const reloadSoon = useThrottledCallback(pins.reload, LIVE_RELOAD_PAUSE_MS);
  useEvent('pin', (payload) => {
    const change: ListChange<PinRecord> = isRemovedEvent(payload) ? { kind: 'removed', key: payload.cid } : { kind: 'changed', record: payload };
    const matches = (pin: PinRecord) =>
      (status === undefined || pin.status === status) && (search.kind !== 'name' || pin.name.toLowerCase().includes(search.name.toLowerCase()));
    if (patchListPage<PinRecord, PinsView>(pins.data, change, (pin) => pin.cid, matches).reload) reloadSoon();
    pins.update((page) => patchListPage<PinRecord, PinsView>(page, change, (pin) => pin.cid, matches).page);
  });

  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [unpinning, setUnpinning] = useState<PinRecord | null>(null);
  const [repinTarget, setRepinTarget] = useState<string | null>(null);
  const opener = useOpenContent();

  const rename = useAction((signal, cid: string, name: string) => api.pins.rename(cid, name, signal));
  const unpin = useAction((signal, cid: string) => api.pins.remove(cid, signal));
  const repin = useAction((signal, pin: PinRecord) => api.pins.add({ cid: pin.cid, name: pin.name || undefined }, signal));

  const patchRow = (cid: string, patch: Partial<PinRecord>) =>
    pins.update((page) => page && { ...page, items: page.items.map((pin) => (pin.cid === cid ? { ...pin, ...patch } : pin)) });

  const saveName = async (pin: PinRecord, name: string) => {
    if (name === pin.name) {
      setEditing(null);
      return;
    }
    const result = await rename.run(pin.cid, name);
    if (!result.ok) return;
    patchRow(pin.cid, { name });
    setEditing(null);
  };

  const takeBack = async (pin: PinRecord) => {
    setRepinTarget(pin.cid);
    const result = await repin.run(pin);
    if (!result.ok) return;
    toasts.show(pin.status === 'failure' ? `Pinning ${pinLabel(pin)} again.` : `${pinLabel(pin)} is pinned again.`);
    reloadSoon();
  };

  const confirmUnpin = async () => {
    if (!unpinning) return;
    const result = await unpin.run(unpinning.cid);
    if (!result.ok) return;
    patchRow(unpinning.cid, { status: 'unpinning' });
    toasts.show(`Unpinned ${pinLabel(unpinning)}. Its data goes at the next garbage collection.`);
    setUnpinning(null);
  };

  const filtered = status !== undefined || search.kind !== 'none';
  // An account with no pin at all: the empty table says what to do; a search box and pages would be noise.
  const nothingYet = !filtered && text === '' && pins.data?.total === 0 && position.start === 0;
  const clearFilters = () => {
    setText('');
    writeQuery('');
    setFilter('status', null);
  };

  const failureFor = (pin: PinRecord): string | null => {
    if (opener.failure?.key === pin.cid) return opener.failure.message;
    return repinTarget === pin.cid ? repin.error : null;
  };

  return (
    <Page
      title="Pins"
      description="The content this account keeps: pinned data survives garbage collection. The list updates by itself."
      actions={
        <Button
          variant="primary"
          icon="plus"
          onClick={() => {
            setAdding(true);
          }}
        >
          Add pin
        </Button>
      }
    >
      {nothingYet ? null : (
        <PinFilters
          summary={pins.data ? describePinView(pins.data.search, pins.data.status, pins.data.total) : ''}
          text={text}
          onText={setText}
          status={status}
          onStatus={(next) => setFilter('status', next ?? null)}
          statuses={PIN_STATUSES}
          onSubmit={() => writeQuery(text)}
          onClear={filtered && total > 0 ? clearFilters : undefined}
        />
      )}
      <DataTable
        label="Pins"
        columns={pinColumns({
          editing,
          renameBusy: rename.pending,
          renameError: rename.error,
          onEdit: (pin) => {
            rename.clearError();
            setEditing(pin.cid);
          },
          onCancelEdit: () => setEditing(null),
          onSaveName: (pin, name) => void saveName(pin, name),
          failureFor,
        })}
        rows={pins.data?.items}
        rowKey={(pin) => pin.cid}
        loading={pins.loading}
        waiting={pins.waiting}
        error={pins.error}
        onRetry={pins.reload}
        rowClassName={(pin) => (pin.cid === added ? 'is-new' : undefined)}
        empty={
          filtered ? (
            <EmptyState icon="search" title="No pins match" actions={<Button onClick={clearFilters}>Clear search and filter</Button>}>
              {describePinView(pins.data?.search ?? search, pins.data?.status ?? status, 0)} Try part of the name, or the whole CID.
            </EmptyState>
          ) : (
            <EmptyState
              icon="pins"
              title="No pins yet"
              actions={
                <>
                  <Button variant="primary" icon="plus" onClick={() => setAdding(true)}>
                    Add pin
                  </Button>
                  <Link href="/files" className="button button-secondary">
                    Upload on the Files page
                  </Link>
                </>
              }
            >
              Pin content you know by its CID, or upload files and pin them. Pinned content stays when garbage collection runs.
            </EmptyState>
          )
        }
        rowActions={(pin) => (
          <PinRowActions
            pin={pin}
            open={
              <OpenContentControl
                opener={opener}
                name={pinLabel(pin)}
                target={{ key: pin.cid, path: contentPath(pin.cid, { filename: pin.name }), label: pin.name }}
              />
            }
            repinning={repin.pending && repinTarget === pin.cid}
            onTakeBack={() => void takeBack(pin)}
            onUnpin={() => {
              unpin.clearError();
              setUnpinning(pin);
            }}
          />
        )}
      />
      {nothingYet || !pins.data ? null : <Pagination label="Pins" total={total} {...position} onChange={setPosition} />}
      <AddPinDialog
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={(pin) => {
          setAdding(false);
          setAdded(pin.cid);
          pins.reload();
          const where = filtered || position.start > 0 ? ' It is at the top of the list when no search or filter is on.' : '';
          toasts.show(`${pin.status === 'pinned' ? 'Pinned' : 'Pinning'} ${pinLabel(pin)}.${where}`);
        }}
      />
      <ConfirmDialog
        open={unpinning !== null}
        title={`Unpin ${unpinning ? pinLabel(unpinning) : ''}?`}
        confirmLabel="Unpin"
        busyLabel="Unpinning…"
        busy={unpin.pending}
        error={unpin.error}
        onCancel={() => setUnpinning(null)}
        onConfirm={() => void confirmUnpin()}
      >
        <p>The pin turns “Unpinning”. Its data is deleted at the next garbage collection, unless another pin holds it.</p>
        <p className="muted">Until then, Pin again takes it back.</p>
      </ConfirmDialog>
    </Page>
  );
}
