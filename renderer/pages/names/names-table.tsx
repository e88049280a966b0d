import type { ReactNode } from 'react';
import type { IpnsRecordView } from '../../../shared/api-types.js';
import type { OpenContent } from '../../app/hooks/use-open-content.js';
import { OpenContentControl } from '../../app/open-content-control.js';
import { PublicNameControl } from '../../app/public-name-control.js';
import { DataTable } from '../../components/data-table.js';
import type { ApiQuery } from '../../data/api-query.js';
import type { NameListView } from '../../data/names.js';
import { useSyncFolders } from '../../data/sync-folders.js';
import { nameColumns } from './name-columns.js';
import { nameLabel } from './name-label.js';
import { NameRowActions } from './name-row-actions.js';
import { useAliasEdit } from './use-alias-edit.js';

export interface NamesTableProps {
  names: ApiQuery<NameListView>;
  opener: OpenContent;
  /** The name just created or imported: marked. */
  fresh: string | null;
  empty: ReactNode;
  onPublish: (name: IpnsRecordView) => void;
  onDelete: (name: IpnsRecordView) => void;
}

/** The names shown, each with its alias edited in place, the sync folder publishing it, its Public switch, Publish, Open and Delete. */
export function NamesTable({ names, opener, fresh, empty, onPublish, onDelete }: NamesTableProps) {
  const aliasEdit = useAliasEdit();
  const folders = useSyncFolders();
  const folderByName = new Map((folders.data ?? []).filter((folder) => folder.ipns_name !== '').map((folder) => [folder.ipns_name, folder]));
  return (
    <DataTable
      label="Names"
      columns={nameColumns({
        ...aliasEdit,
        failureFor: (name) => (opener.failure?.key === name.name ? opener.failure.message : null),
        folderOf: (name) => folderByName.get(name.name),
        publicSwitch: (name) => <PublicNameControl name={name.name} label={nameLabel(name)} isPublic={name.public} />,
      })}
      rows={names.data?.items}
      rowKey={(name) => name.name}
      loading={names.loading}
      waiting={names.waiting}
      error={names.error}
      onRetry={names.reload}
      rowClassName={(name) => (name.name === fresh ? 'is-new' : undefined)}
      empty={empty}
      rowActions={(name) => (
        <NameRowActions
          name={name}
          open={<OpenContentControl opener={opener} name={nameLabel(name)} target={{ key: name.name, path: `/ipns/${name.name}`, label: name.alias }} />}
          onPublish={() => onPublish(name)}
          onDelete={() => onDelete(name)}
        />
      )}
    />
  );
}
