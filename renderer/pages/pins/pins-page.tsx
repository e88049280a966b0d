import { useState } from 'react';
import { PIN_STATUSES, type PinRecord } from '../../../shared/api-types.js';
import { useListSearch } from '../../app/hooks/use-list-search.js';
import { useOpenContent } from '../../app/hooks/use-open-content.js';
import { usePageInRange } from '../../app/hooks/use-page-in-range.js';
import { OpenContentControl } from '../../app/open-content-control.js';
import { Button } from '../../components/button.js';
import { DataTable } from '../../components/data-table.js';
import { Page } from '../../components/page.js';
import { Pagination } from '../../components/pagination.js';
import { useToasts } from '../../components/toasts.js';
import { usePinList } from '../../data/pins.js';
import { contentPath } from '../../lib/gateway-links.js';
import { AddPinDialog } from './add-pin-dialog.js';
import { pinColumns } from './pin-columns.js';
import { pinLabel } from './pin-label.js';
import { PinFilters } from './pin-filters.js';
import { PinRowActions } from './pin-row-actions.js';
import { choiceParam, describePinView, PIN_SEARCH_BOX, pinStatusChoice, searchFilters, searchOfFilters, statusOfChoice } from './pin-search.js';
import { PinsEmpty } from './pins-empty.js';
import { UnpinDialog } from './unpin-dialog.js';
import { usePinRowActions } from './use-pin-row-actions.js';
import './pins.css';

/** Search as you type: the list is asked once typing pauses this long (a stale request is aborted). */
export const SEARCH_DEBOUNCE_MS = 100;

/**
 * The pins of this account, newest first, as the API pages them (fast at 100,000: `start` is cheap from
 * either end): a status filter and one search box (a CID, or part of a name) kept in the URL with the
 * page (`?cid=` or `?name=`: the desktop app's ipfs:// handler opens `/pins?cid=<cid>`), Add pin, inline rename, Unpin with a confirmation, Pin again / Retry, copy and open. Rows follow
 * `event: pin` (pinning → pinned) without a reload: the request cache does (renderer/data/pins.ts).
 */
export function PinsPage() {
  const toasts = useToasts();
  const { position, setPosition, params, setFilter, search, text, writeQuery, setText, clearSearch } = useListSearch(PIN_SEARCH_BOX, SEARCH_DEBOUNCE_MS);
  const statusChoice = pinStatusChoice(params.get('status'), search);
  const status = statusOfChoice(statusChoice);

  const pins = usePinList({ status, ...searchFilters(search), start: position.start, limit: position.limit });
  usePageInRange(pins, position, setPosition);
  const total = pins.data?.total ?? 0;
  // A page carries the query it answers, so the words above it describe the rows shown, not a query still loading.
  const shown = { search: pins.data ? searchOfFilters(pins.data.query) : search, status: pins.data ? pins.data.query.status : status };

  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState<string | null>(null);
  const [unpinning, setUnpinning] = useState<PinRecord | null>(null);
  const opener = useOpenContent();
  const rowActions = usePinRowActions(opener);

  // The default status (Active; All for a CID search) is not a narrowing the user asked for.
  const filtered = params.get('status') !== null || search.kind !== 'none';
  // An account with no pin at all: the empty table says what to do; a search box and pages would be noise.
  const nothingYet = !filtered && text === '' && pins.data?.total === 0 && position.start === 0;
  const clearFilters = () => {
    clearSearch();
    setFilter('status', null);
  };

  return (
    <Page
      title="Pins"
      description="The content this account keeps: pinned data survives garbage collection. The list updates by itself."
      actions={
        <Button variant="primary" icon="plus" onClick={() => setAdding(true)}>
          Add pin
        </Button>
      }
    >
      {nothingYet ? null : (
        <PinFilters
          summary={pins.data ? describePinView(shown.search, shown.status, pins.data.total) : ''}
          text={text}
          onText={setText}
          status={statusChoice}
          onStatus={(next) => setFilter('status', choiceParam(next, search))}
          statuses={PIN_STATUSES}
          onSubmit={() => writeQuery(text)}
          onClear={filtered && total > 0 ? clearFilters : undefined}
        />
      )}
      <DataTable
        label="Pins"
        columns={pinColumns(rowActions.columns)}
        rows={pins.data?.items}
        rowKey={(pin) => pin.cid}
        loading={pins.loading}
        waiting={pins.waiting}
        error={pins.error}
        onRetry={pins.reload}
        rowClassName={(pin) => (pin.cid === added ? 'is-new' : undefined)}
        empty={<PinsEmpty filtered={filtered} searched={describePinView(shown.search, shown.status, 0)} onClear={clearFilters} onAdd={() => setAdding(true)} />}
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
            openWithText={
              <OpenContentControl
                opener={opener}
                name={pinLabel(pin)}
                text="Open"
                target={{ key: pin.cid, path: contentPath(pin.cid, { filename: pin.name }), label: pin.name }}
              />
            }
            repinning={rowActions.repinning(pin)}
            onTakeBack={() => rowActions.takeBack(pin)}
            onUnpin={() => setUnpinning(pin)}
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
          const where = filtered || position.start > 0 ? ' It is at the top of the list when no search or filter is on.' : '';
          toasts.show(`${pin.status === 'pinned' ? 'Pinned' : 'Pinning'} ${pinLabel(pin)}.${where}`);
        }}
      />
      <UnpinDialog pin={unpinning} onClose={() => setUnpinning(null)} />
    </Page>
  );
}
