import type { PinRecord } from '../../../shared/api-types.js';
import { Cid } from '../../components/cid.js';
import { RowFailure } from '../../components/row-failure.js';
import type { Column } from '../../components/data-table.js';
import { InlineEdit } from '../../components/inline-edit.js';
import { RelativeTime } from '../../components/relative-time.js';
import { StatusBadge } from '../../components/status-badge.js';
import { formatBytes } from '../../lib/format.js';
import { fetchWords } from '../../lib/pin-fetch.js';
import { syncPinFolderPath } from '../../lib/sync-pins.js';
import { MAX_PIN_NAME } from './add-pin-dialog.js';
import { pinLabel } from './pin-label.js';
import { UnpinningNote } from './unpinning-note.js';

export interface PinColumnsInit {
  /** The CID of the pin whose name is being edited. */
  editing: string | null;
  renameBusy: boolean;
  renameError: string | null;
  onEdit: (pin: PinRecord) => void;
  onCancelEdit: () => void;
  onSaveName: (pin: PinRecord, name: string) => void;
  /** Why an action on this row failed (Open, Pin again), shown under its name. */
  failureFor: (pin: PinRecord) => string | null;
}

/** A pinning pin's fetch under its status: the source's host never broken across lines. */
function PinFetch({ pin }: { pin: PinRecord }) {
  const words = fetchWords(pin);
  if (words.kind !== 'fetching') return <span className="pin-fetch muted">{words.text}</span>;
  return (
    <span className="pin-fetch muted">
      Fetching from <span className="pin-fetch-host">{words.host}</span>: {words.amount}
    </span>
  );
}

/** A pin's name as its row shows it: a sync folder's version by the folder and its time (the path in the tooltip). */
function PinNameShown({ pin }: { pin: PinRecord }) {
  if (!pin.name) return <span className="muted">No name</span>;
  if (syncPinFolderPath(pin.name) === null) return pin.name;
  return (
    <span className="pin-sync-version" title={pin.name}>
      <span>{pinLabel(pin)}</span>
      <span className="muted">Sync folder version</span>
    </span>
  );
}

/** Name (renamed in place), CID (copy), status (with a pinning pin's fetch), size and age of each pin. */
export function pinColumns(init: PinColumnsInit): Array<Column<PinRecord>> {
  return [
    {
      key: 'name',
      header: 'Name',
      width: '32%',
      cell: (pin) => {
        const shown = pin.name ? pinLabel(pin) : pin.cid;
        return (
          <div className="pin-name">
            <InlineEdit
              value={pin.name}
              display={<PinNameShown pin={pin} />}
              label={`Name of ${shown}`}
              editLabel={`Rename ${shown}`}
              placeholder="No name"
              maxLength={MAX_PIN_NAME}
              editing={init.editing === pin.cid}
              busy={init.renameBusy}
              error={init.editing === pin.cid ? init.renameError : null}
              onEdit={() => init.onEdit(pin)}
              onCancel={init.onCancelEdit}
              onSave={(name) => init.onSaveName(pin, name)}
            />
            {/* Narrow windows drop the CID column: the CID goes under the name, so the actions stay in view. */}
            <span className="pin-cid-narrow">
              <Cid value={pin.cid} copy />
            </span>
            <RowFailure message={init.failureFor(pin)} />
          </div>
        );
      },
    },
    { key: 'cid', header: 'CID', secondary: true, cell: (pin) => <Cid value={pin.cid} copy /> },
    {
      key: 'status',
      header: 'Status',
      cell: (pin) => (
        <div className="pin-status">
          <StatusBadge pin={pin.status} />
          {pin.status === 'pinning' ? <PinFetch pin={pin} /> : null}
          {pin.status === 'unpinning' ? <UnpinningNote /> : null}
        </div>
      ),
    },
    {
      key: 'size',
      header: 'Size',
      align: 'end',
      secondary: true,
      cell: (pin) =>
        pin.status === 'pinning' ? (
          <span className="muted" title="Known once every block is here">
            —
          </span>
        ) : (
          <span title={`${pin.size.toLocaleString('en-US')} bytes`}>{formatBytes(pin.size)}</span>
        ),
    },
    { key: 'created', header: 'Created', align: 'end', secondary: true, cell: (pin) => <RelativeTime unixSeconds={pin.created_at} /> },
  ];
}
