import { useState } from 'react';
import { Link } from 'wouter';
import type { SyncVersionEntry } from '../../../shared/api-types.js';
import { useOpenContent } from '../../app/hooks/use-open-content.js';
import { OpenContentControl } from '../../app/open-content-control.js';
import { Button, IconButton } from '../../components/button.js';
import { DataTable } from '../../components/data-table.js';
import { EmptyState } from '../../components/empty-state.js';
import { Icon } from '../../components/icons.js';
import { InlineError } from '../../components/inline-error.js';
import { useVersionTree } from '../../data/sync-versions.js';
import { formatBytes } from '../../lib/format.js';
import { pathNames, versionContentPath } from '../../lib/sync-history.js';
import { viewPagePath } from '../../lib/view-path.js';

export interface VersionTreeProps {
  folderId: string;
  folderName: string;
  root: string;
  onRestore: (path: string, kind: 'file' | 'dir') => void;
}

/**
 * The files of one version, a folder at a time (GET /api/v0/sync/tree): folders open in place (with a path
 * of links back up), files open in the View page or a new tab from the gateway, each with Restore.
 */
export function VersionTree({ folderId, folderName, root, onRestore }: VersionTreeProps) {
  const opener = useOpenContent();
  const [path, setPath] = useState('');
  const listing = useVersionTree(folderId, root, path);
  const names = pathNames(path);
  const childPath = (entry: SyncVersionEntry) => (path === '' ? entry.name : `${path}/${entry.name}`);

  return (
    <div className="stack version-tree">
      <nav aria-label="Folder of this version" className="version-crumbs">
        <ol>
          <li>
            {names.length === 0 ? (
              <span aria-current="location">{folderName}</span>
            ) : (
              <button type="button" className="link-button" onClick={() => setPath('')}>
                {folderName}
              </button>
            )}
          </li>
          {names.map((name, index) => (
            <li key={`${index}:${name}`}>
              {index === names.length - 1 ? (
                <span aria-current="location">{name}</span>
              ) : (
                <button type="button" className="link-button" onClick={() => setPath(names.slice(0, index + 1).join('/'))}>
                  {name}
                </button>
              )}
            </li>
          ))}
        </ol>
        {path !== '' ? (
          <Button size="sm" variant="secondary" icon="refresh" onClick={() => onRestore(path, 'dir')}>
            Restore this folder
          </Button>
        ) : null}
      </nav>
      {listing.data?.truncated ? <p className="muted">Only the first {listing.data.entries.length} entries of this folder are listed.</p> : null}
      <DataTable
        label={`Files of ${names.at(-1) ?? folderName} in this version`}
        rows={listing.data?.entries}
        rowKey={(entry) => entry.name}
        loading={listing.loading}
        waiting={listing.waiting}
        error={listing.error}
        onRetry={listing.reload}
        empty={<EmptyState title="This folder was empty">There were no files in it in this version.</EmptyState>}
        columns={[
          {
            key: 'name',
            header: 'Name',
            cell: (entry) =>
              entry.kind === 'dir' ? (
                <button type="button" className="link-button version-entry" onClick={() => setPath(childPath(entry))} aria-label={`Open folder ${entry.name}`}>
                  <Icon name="folder" />
                  <span>{entry.name}</span>
                </button>
              ) : (
                <Link className="version-entry" href={viewPagePath(versionContentPath(root, childPath(entry), false))} aria-label={`View ${entry.name}`}>
                  <Icon name="files" />
                  <span>{entry.name}</span>
                </Link>
              ),
          },
          { key: 'size', header: 'Size', align: 'end', secondary: true, cell: (entry) => (entry.kind === 'dir' ? '—' : formatBytes(entry.size)) },
        ]}
        rowActions={(entry) => (
          <span className="version-entry-actions">
            {entry.kind === 'file' ? (
              <OpenContentControl
                target={{ key: entry.cid, path: versionContentPath(root, childPath(entry), false), label: entry.name }}
                opener={opener}
                name={entry.name}
              />
            ) : (
              <span />
            )}
            {entry.kind === 'other' ? (
              <span />
            ) : (
              <IconButton
                icon="refresh"
                variant="secondary"
                label={`Restore ${entry.name}`}
                onClick={() => onRestore(childPath(entry), entry.kind === 'dir' ? 'dir' : 'file')}
              />
            )}
          </span>
        )}
      />
      {opener.failure ? <InlineError message={opener.failure.message} /> : null}
    </div>
  );
}
