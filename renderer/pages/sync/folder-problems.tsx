import type { SyncFolderDetail } from '../../../shared/api-types.js';
import { DataTable } from '../../components/data-table.js';
import { RelativeTime } from '../../components/relative-time.js';
import { Section } from '../../components/section.js';
import { sentence } from '../../lib/messages.js';

/**
 * What cannot be read now (left out of the root until it can be), and the recent errors the service
 * remembers (since it started), newest first. Retry sits with the folder's state above.
 */
export function FolderProblems({ folder }: { folder: SyncFolderDetail }) {
  return (
    <Section title="Errors" description="Problems since the service started, the newest first. Pinfold retries by itself; Retry above tries now.">
      <div className="stack">
        {folder.unreadable.length > 0 ? (
          <DataTable
            label="Files that cannot be read now"
            showCaption
            rows={folder.unreadable}
            rowKey={(entry) => entry.path}
            empty={null}
            columns={[
              { key: 'path', header: 'File', cell: (entry) => <span className="mono">{entry.path}</span> },
              { key: 'reason', header: 'Why', cell: (entry) => sentence(entry.reason) },
            ]}
          />
        ) : null}
        {folder.errors.length > 0 ? (
          <DataTable
            label="Recent errors"
            // The same error can come twice in one second: the position keeps keys apart.
            rows={folder.errors.map((entry, index) => ({ ...entry, index }))}
            rowKey={(entry) => String(entry.index)}
            empty={null}
            columns={[
              { key: 'at', header: 'When', width: '160px', cell: (entry) => <RelativeTime unixSeconds={entry.at} /> },
              {
                key: 'path',
                header: 'File',
                cell: (entry) => (entry.path ? <span className="mono">{entry.path}</span> : <span className="muted">The whole folder</span>),
              },
              { key: 'message', header: 'Error', cell: (entry) => sentence(entry.message) },
            ]}
          />
        ) : (
          <p className="muted" data-testid="no-errors">
            No errors since the service started.
          </p>
        )}
      </div>
    </Section>
  );
}
