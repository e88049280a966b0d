import type { SyncBatchView } from '../../../shared/api-types.js';
import { Cid } from '../../components/cid.js';
import { DataTable } from '../../components/data-table.js';
import { EmptyState } from '../../components/empty-state.js';
import { RelativeTime } from '../../components/relative-time.js';
import { Section } from '../../components/section.js';
import { formatBytes } from '../../lib/format.js';
import { describeBatch } from '../../lib/sync-folders.js';

/** The last settled batches, newest first: each one root, and the files it added, modified and removed. */
export function FolderBatches({ batches }: { batches: readonly SyncBatchView[] }) {
  return (
    <Section title="Recent changes" description="Each batch of changes settled into one new root, pinned and published. The newest first.">
      <DataTable
        label="Recent changes"
        rows={batches}
        rowKey={(batch) => `${batch.finished_at}:${batch.root}`}
        empty={<EmptyState title="No changes yet">The first scan appears here once its root is pinned.</EmptyState>}
        columns={[
          { key: 'when', header: 'Settled', cell: (batch) => <RelativeTime unixSeconds={batch.finished_at} /> },
          { key: 'changes', header: 'Files', cell: (batch) => describeBatch(batch) },
          { key: 'bytes', header: 'Bytes read', align: 'end', secondary: true, cell: (batch) => formatBytes(batch.bytes) },
          { key: 'root', header: 'Root CID', cell: (batch) => <Cid value={batch.root} copy what="root CID of this change" /> },
        ]}
      />
    </Section>
  );
}
