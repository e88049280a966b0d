import type { SyncVersion } from '../../../shared/api-types.js';
import type { ListPage } from '../../api/core.js';
import { Button } from '../../components/button.js';
import { Cid } from '../../components/cid.js';
import { DataTable } from '../../components/data-table.js';
import { EmptyState } from '../../components/empty-state.js';
import { RelativeTime } from '../../components/relative-time.js';
import { Tag } from '../../components/status-badge.js';
import type { ApiQuery } from '../../data/api-query.js';
import { formatBytes, formatCount } from '../../lib/format.js';
import { formatVersionTime, versionChanges } from '../../lib/sync-history.js';

export interface VersionsTableProps {
  versions: ApiQuery<ListPage<SyncVersion>>;
  /** The root of the version shown below the table, if any. */
  selected: string | null;
  onSelect: (version: SyncVersion) => void;
  /** How many more "Show more" asks for. */
  more: number;
  onShowMore: () => void;
}

/** The timeline of kept versions, newest first, the current one marked; Browse opens one; "Show more" asks for older ones. */
export function VersionsTable({ versions, selected, onSelect, more, onShowMore }: VersionsTableProps) {
  const shown = versions.data?.items;
  const current = shown?.[0]?.root;
  return (
    <>
      <DataTable
        label="Versions"
        rows={shown}
        rowKey={(version) => version.root}
        loading={versions.loading}
        waiting={versions.waiting}
        error={versions.error}
        onRetry={versions.reload}
        rowClassName={(version) => (version.root === selected ? 'is-selected' : undefined)}
        empty={<EmptyState title="No versions yet">The first scan becomes the first version once its root is pinned.</EmptyState>}
        columns={[
          {
            key: 'when',
            header: 'Version',
            cell: (version) => (
              <span className="version-when">
                <RelativeTime unixSeconds={version.created_at} />
                {version.root === current ? <Tag>Current</Tag> : null}
              </span>
            ),
          },
          { key: 'changes', header: 'Changes', cell: (version) => <VersionChanges version={version} /> },
          { key: 'bytes', header: 'Bytes', align: 'end', secondary: true, cell: (version) => formatBytes(version.bytes) },
          { key: 'root', header: 'Root CID', secondary: true, cell: (version) => <Cid value={version.root} copy what="root CID of this version" /> },
        ]}
        rowActions={(version) => (
          <Button
            size="sm"
            variant={version.root === selected ? 'primary' : 'secondary'}
            aria-pressed={version.root === selected}
            aria-label={`Browse the version of ${formatVersionTime(version.created_at)}`}
            onClick={() => onSelect(version)}
          >
            Browse
          </Button>
        )}
      />
      {shown && versions.data && shown.length < versions.data.total ? (
        <div className="row">
          <Button variant="secondary" busy={versions.loading} onClick={onShowMore}>
            Show {formatCount(Math.min(more, versions.data.total - shown.length))} more
          </Button>
          <span className="muted">
            {formatCount(shown.length)} of {formatCount(versions.data.total)} versions
          </span>
        </div>
      ) : null}
    </>
  );
}

function VersionChanges({ version }: { version: SyncVersion }) {
  const changes = versionChanges(version);
  return (
    <span className="version-changes" title={changes.label}>
      <span aria-hidden="true">{changes.short}</span>
      <span className="visually-hidden">{changes.label}</span>
    </span>
  );
}
