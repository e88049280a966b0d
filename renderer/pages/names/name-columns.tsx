import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { IpnsRecordView, SyncFolderView } from '../../../shared/api-types.js';
import { Cid } from '../../components/cid.js';
import { Icon } from '../../components/icons.js';
import { RowFailure } from '../../components/row-failure.js';
import type { Column } from '../../components/data-table.js';
import { InlineEdit } from '../../components/inline-edit.js';
import { RelativeTime } from '../../components/relative-time.js';
import { folderName } from '../../lib/sync-folders.js';
import { MAX_ALIAS } from './name-label.js';

export interface NameColumnsInit {
  /** The name whose alias is being edited. */
  editing: string | null;
  aliasBusy: boolean;
  aliasError: string | null;
  onEdit: (name: IpnsRecordView) => void;
  onCancelEdit: () => void;
  onSaveAlias: (name: IpnsRecordView, alias: string) => void;
  /** Why an action on this row failed (Open), shown under its name. */
  failureFor: (name: IpnsRecordView) => string | null;
  /** The row's Public switch (public-name-control.tsx). */
  publicSwitch: (name: IpnsRecordView) => ReactNode;
  /** The sync folder that publishes this name, if one does. */
  folderOf: (name: IpnsRecordView) => SyncFolderView | undefined;
}

/** The sync folder a name is the address of, linked to the folder's page (its path in the tooltip). */
function SyncFolderNote({ folder }: { folder: SyncFolderView }) {
  return (
    <span className="name-folder muted">
      <Icon name="sync" size={12} />
      <span>
        Sync folder{' '}
        <Link href={`/sync/${encodeURIComponent(folder.id)}`} title={folder.path}>
          {folderName(folder.path)}
        </Link>
      </span>
    </span>
  );
}

/** The mark of a public name: an icon and the word (never colour alone). */
function PublicMark() {
  return (
    <span className="badge badge-progress name-public-mark" title="Its records go to the IPFS network">
      <Icon name="globe" size={12} />
      Public
    </span>
  );
}

/** The alias, edited in place (one row at a time). */
function aliasEdit(init: NameColumnsInit, name: IpnsRecordView) {
  const shown = name.alias || name.name;
  return (
    <InlineEdit
      value={name.alias}
      display={name.alias ? name.alias : <span className="muted">No alias</span>}
      label={`Alias of ${shown}`}
      editLabel={`Edit the alias of ${shown}`}
      placeholder="No alias"
      maxLength={MAX_ALIAS}
      editing={init.editing === name.name}
      busy={init.aliasBusy}
      error={init.editing === name.name ? init.aliasError : null}
      onEdit={() => init.onEdit(name)}
      onCancel={init.onCancelEdit}
      onSave={(alias) => init.onSaveAlias(name, alias)}
    />
  );
}

/** Name (copy, the Public mark, the sync folder that publishes it), the CID it points at, the alias (edited in place), when it was last published, the Public switch. */
export function nameColumns(init: NameColumnsInit): Array<Column<IpnsRecordView>> {
  return [
    {
      key: 'name',
      header: 'Name',
      cell: (name) => {
        const folder = init.folderOf(name);
        return (
          <div className="name-cell">
            {/* Narrow windows drop the alias and value columns: they go above and under the name. */}
            <span className="name-narrow">{aliasEdit(init, name)}</span>
            <span className="name-line">
              <Cid value={name.name} what="IPNS name" copy head={12} tail={6} />
              {name.public ? <PublicMark /> : null}
            </span>
            {folder ? <SyncFolderNote folder={folder} /> : null}
            <span className="name-narrow name-value-narrow">
              <span className="muted">→ </span>
              <Cid value={name.value} copy />
            </span>
            <RowFailure message={init.failureFor(name)} />
          </div>
        );
      },
    },
    { key: 'value', header: 'Points at', secondary: true, cell: (name) => <Cid value={name.value} copy /> },
    { key: 'alias', header: 'Alias', secondary: true, cell: (name) => aliasEdit(init, name) },
    {
      key: 'published',
      header: 'Published',
      align: 'end',
      secondary: true,
      cell: (name) => <RelativeTime unixSeconds={name.publish_at} />,
    },
    // Kept on narrow windows: whether the name is on the network matters as much as the name.
    { key: 'public', header: 'Public', cell: (name) => init.publicSwitch(name) },
  ];
}
