import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { SyncFolderView } from '../../../shared/api-types.js';
import { DataTable } from '../../components/data-table.js';
import { InlineError } from '../../components/inline-error.js';
import { RelativeTime } from '../../components/relative-time.js';
import { followOrigin, heldVersion, isFollowed, sourceGateway } from '../../lib/followed-folders.js';
import { describeContent, folderName } from '../../lib/sync-folders.js';
import { CheckedAgo } from './checked-ago.js';
import { FollowingTag } from './following-tag.js';
import { FolderActions } from './folder-actions.js';
import { FolderIpnsName, FolderRoot } from './folder-identifiers.js';
import { FolderState } from './folder-state.js';
import type { FolderCommands } from './use-folder-commands.js';

export interface SyncFoldersTableProps {
  rows: readonly SyncFolderView[] | undefined;
  loading: boolean;
  waiting: boolean;
  error: string | null;
  onRetryLoad: () => void;
  commands: FolderCommands;
  onRemove: (row: SyncFolderView) => void;
  publicGateway: boolean;
  empty: ReactNode;
}

/**
 * One row per sync folder: where it is, its state and progress, what it holds, when it last changed, its root
 * and name. A followed folder says so beside its name ("Following", from where) and shows the version it
 * holds and its last check instead of its last change.
 */
export function SyncFoldersTable({ rows, loading, waiting, error, onRetryLoad, commands, onRemove, publicGateway, empty }: SyncFoldersTableProps) {
  return (
    <DataTable
      label="Sync folders"
      rows={rows}
      rowKey={(row) => row.id}
      loading={loading}
      waiting={waiting}
      error={error}
      onRetry={onRetryLoad}
      empty={empty}
      columns={[
        {
          key: 'folder',
          header: 'Folder',
          width: '28%',
          cell: (row) => (
            <div className="folder-cell">
              <span className="folder-title">
                <Link href={`/sync/${encodeURIComponent(row.id)}`} className="folder-link">
                  {folderName(row.path)}
                </Link>
                {isFollowed(row) ? <FollowingTag /> : null}
              </span>
              {isFollowed(row) ? (
                <span className="folder-origin" data-testid="folder-origin" title={row.source}>
                  from <span className={sourceGateway(row.source) ? 'folder-origin-value is-host' : 'folder-origin-value mono'}>{followOrigin(row)}</span>
                </span>
              ) : null}
              <span className="folder-path mono" title={row.path}>
                {row.path}
              </span>
            </div>
          ),
        },
        {
          key: 'state',
          header: 'State',
          width: '26%',
          cell: (row) => (
            <>
              <FolderState row={row} onRetry={() => void commands.run(row.id, 'retry')} retrying={commands.pending(row.id) === 'retry'} />
              <InlineError message={commands.error(row.id)} />
            </>
          ),
        },
        {
          key: 'content',
          header: 'Content',
          secondary: true,
          cell: (row) =>
            isFollowed(row) ? (
              // Three short lines rather than one long one: the row's actions must stay inside the table at 1280 px.
              <div className="folder-cell">
                <span className="nowrap">{row.root === '' ? 'No version yet' : describeContent(row)}</span>
                {row.root === '' ? null : <span className="muted small nowrap">{heldVersion(row)}</span>}
                <span className="muted small nowrap">
                  <CheckedAgo unixSeconds={row.checked_at} phrase />
                </span>
              </div>
            ) : (
              <div className="folder-cell">
                <span className="nowrap">{describeContent(row)}</span>
                <span className="muted small nowrap">
                  {row.last_synced_at > 0 ? (
                    <>
                      Changed <RelativeTime unixSeconds={row.last_synced_at} />
                    </>
                  ) : (
                    'Not synced yet'
                  )}
                </span>
              </div>
            ),
        },
        {
          key: 'published',
          header: 'Root CID and IPNS name',
          // Narrow windows keep the folder, its state and its actions; the folder's page has these.
          secondary: true,
          cell: (row) => (
            <dl className="published">
              <dt>Root</dt>
              <dd>
                <FolderRoot row={row} publicGateway={publicGateway} />
              </dd>
              <dt>IPNS</dt>
              <dd>
                <FolderIpnsName row={row} publicGateway={publicGateway} />
              </dd>
            </dl>
          ),
        },
      ]}
      rowActions={(row) => <FolderActions row={row} commands={commands} onRemove={() => onRemove(row)} compact />}
    />
  );
}
