import type { ReactNode } from 'react';
import { Button, IconButton } from '../../components/button.js';
import { Cid } from '../../components/cid.js';
import { ContentLink } from '../../components/content-link.js';
import { DataTable } from '../../components/data-table.js';
import { EmptyState } from '../../components/empty-state.js';
import { Icon } from '../../components/icons.js';
import { RelativeTime } from '../../components/relative-time.js';
import { Section } from '../../components/section.js';
import { StatusBadge } from '../../components/status-badge.js';
import { formatBytes, formatCount } from '../../lib/format.js';
import { contentPath } from '../../lib/gateway-links.js';
import { RECENT_UPLOADS_LIMIT, type RecentUpload } from '../../lib/recent-uploads.js';

export interface RecentUploadsProps {
  entries: readonly RecentUpload[];
  /** Uploaded while this page was open: marked in the table. */
  fresh: ReadonlySet<string>;
  /** Why pinning an upload failed, by CID. */
  pinErrors: ReadonlyMap<string, string>;
  /** Whether a link to the gateway opens the content here (see app/gateway-access.tsx). */
  openable: boolean;
  /** What "Open" does here, in a sentence. */
  openNote: ReactNode;
  onPin: (upload: RecentUpload) => void;
  onRemove: (upload: RecentUpload) => void;
}

/** The uploads made from this browser by this account: name, CID, size, time and pin state, with Copy, Open, Pin and Remove. */
export function RecentUploadsSection({ entries, fresh, pinErrors, openable, openNote, onPin, onRemove }: RecentUploadsProps) {
  return (
    <Section
      title="Recent uploads"
      description={
        <>
          Uploaded from this browser by this account, newest first (the last {RECENT_UPLOADS_LIMIT}). {openNote}
        </>
      }
    >
      <DataTable<RecentUpload>
        label="Recent uploads"
        rows={entries}
        rowKey={(upload) => upload.cid}
        rowClassName={(upload) => (fresh.has(upload.cid) ? 'is-fresh' : undefined)}
        empty={
          <EmptyState icon="upload" title="Nothing uploaded from this browser yet">
            Drop files or a folder anywhere on this page, or use the buttons above to choose them. Each upload gets its CID at once; pin it to keep it.
          </EmptyState>
        }
        columns={[
          {
            key: 'name',
            header: 'Name',
            width: '30%',
            cell: (upload) => (
              <span className="upload-entry">
                <Icon name={upload.kind === 'folder' ? 'folder' : 'files'} className="upload-entry-icon" />
                <span className="upload-entry-text">
                  <span className="upload-entry-name">{upload.name || '(no name)'}</span>
                  {upload.kind === 'folder' ? (
                    <span className="muted upload-entry-kind">{`Folder · ${formatCount(upload.files)} ${upload.files === 1 ? 'file' : 'files'}`}</span>
                  ) : null}
                  <span className="upload-entry-narrow-pin">
                    <PinState upload={upload} error={pinErrors.get(upload.cid)} />
                  </span>
                </span>
              </span>
            ),
          },
          { key: 'cid', header: 'CID', cell: (upload) => <Cid value={upload.cid} copy /> },
          { key: 'size', header: 'Size', align: 'end', secondary: true, cell: (upload) => <span className="numeric">{formatBytes(upload.size)}</span> },
          { key: 'uploaded', header: 'Uploaded', secondary: true, cell: (upload) => <RelativeTime unixSeconds={upload.uploadedAt} /> },
          // At narrow widths the pin state moves under the name (see files.css), so the row's buttons stay in view.
          { key: 'pin', header: 'Pin', secondary: true, cell: (upload) => <PinState upload={upload} error={pinErrors.get(upload.cid)} /> },
        ]}
        rowActions={(upload) => (
          <span className="row upload-entry-actions">
            {openable ? (
              <ContentLink
                href={contentPath(upload.cid, upload.kind === 'folder' ? { directory: true } : { filename: upload.name })}
                label={`Open ${upload.name} in a new tab`}
                text="Open"
                size="sm"
              />
            ) : null}
            {upload.pinStatus === 'unpinned' || upload.pinStatus === 'failure' || upload.pinStatus === 'unpinning' ? (
              <Button size="sm" icon="pins" onClick={() => onPin(upload)} aria-label={`Pin ${upload.name}…`}>
                Pin…
              </Button>
            ) : null}
            <IconButton size="sm" icon="trash" label={`Remove ${upload.name} from this list`} onClick={() => onRemove(upload)} />
          </span>
        )}
      />
    </Section>
  );
}

/** The pin state as a badge, and why the last pin failed. */
function PinState({ upload, error }: { upload: RecentUpload; error: string | undefined }) {
  return (
    <span className="upload-pin">
      {upload.pinStatus === 'unpinned' ? <StatusBadge look={{ label: 'Not pinned', tone: 'neutral' }} /> : <StatusBadge pin={upload.pinStatus} />}
      {error ? (
        <span className="upload-pin-error" role="alert">
          {error}
        </span>
      ) : null}
    </span>
  );
}
