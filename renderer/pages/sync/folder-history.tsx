import { useState } from 'react';
import type { SyncFolderDetail, SyncVersion } from '../../../shared/api-types.js';
import { useAction } from '../../app/hooks/use-action.js';
import { useResource } from '../../app/hooks/use-resource.js';
import { useApi } from '../../app/session.js';
import { Button, IconButton } from '../../components/button.js';
import { InlineError } from '../../components/inline-error.js';
import { ChoiceGroup } from '../../components/choice-group.js';
import { Cid } from '../../components/cid.js';
import { DataTable } from '../../components/data-table.js';
import { EmptyState } from '../../components/empty-state.js';
import { RelativeTime } from '../../components/relative-time.js';
import { Section } from '../../components/section.js';
import { Tag } from '../../components/status-badge.js';
import { TextField } from '../../components/text-field.js';
import { useToasts } from '../../components/toasts.js';
import { useEvent } from '../../events/events-provider.js';
import { formatBytes, formatCount } from '../../lib/format.js';
import { folderName } from '../../lib/sync-folders.js';
import {
  describeHistoryBytes,
  describeRetention,
  retentionChoice,
  retentionText,
  versionChanges,
  type RetentionChoice,
  formatVersionTime,
} from '../../lib/sync-history.js';
import { RestoreDialog, type RestoreTarget } from './restore-dialog.js';
import { VersionDiff } from './version-diff.js';
import { VersionTree } from './version-tree.js';

const PAGE = 20;

/**
 * Every kept version of the folder (issue 15): a timeline, newest first, the current one marked; the
 * retention policy and what history holds; a selected version's files (browse, restore) and its diff with
 * another. Live: a `sync` event of this folder with a new root or history loads the versions again.
 */
export function FolderHistory({ folder, onChanged }: { folder: SyncFolderDetail; onChanged: () => void }) {
  const api = useApi();
  const [limit, setLimit] = useState(PAGE);
  const [selected, setSelected] = useState<string | null>(null);
  const [compare, setCompare] = useState<{ from: string; to: string } | null>(null);
  const [restoring, setRestoring] = useState<RestoreTarget | null>(null);
  const versions = useResource((signal) => api.sync.versions(folder.id, { limit }, signal), [api, folder.id, limit]);
  const shown = versions.data?.items;
  const current = shown?.[0]?.root;

  useEvent('sync', (event) => {
    if (event.id !== folder.id || 'removed' in event) return;
    if (event.root !== current || event.history_bytes !== folder.history_bytes) versions.reload();
  });

  const selectedVersion = shown?.find((version) => version.root === selected) ?? null;
  const select = (version: SyncVersion) => {
    setSelected(version.root);
    setCompare(null);
  };
  const restore = (root: string, path: string, kind: 'file' | 'dir') => {
    const version = shown?.find((entry) => entry.root === root);
    setRestoring({ root, path, kind, createdAt: version?.created_at ?? 0 });
  };
  const diffSides = compare ?? (selectedVersion && current ? { from: selectedVersion.root, to: current } : null);

  return (
    <>
      <Section
        title="History"
        className="folder-history"
        description="Every kept version of this folder is a complete snapshot: browse it, compare it, and bring back a file, a folder or everything."
      >
        <div className="stack">
          <RetentionPolicy folder={folder} onSaved={onChanged} />
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
              {
                key: 'changes',
                header: 'Changes',
                cell: (version) => {
                  const changes = versionChanges(version);
                  return (
                    <span className="version-changes" title={changes.label}>
                      <span aria-hidden="true">{changes.short}</span>
                      <span className="visually-hidden">{changes.label}</span>
                    </span>
                  );
                },
              },
              { key: 'bytes', header: 'Bytes', align: 'end', secondary: true, cell: (version) => formatBytes(version.bytes) },
              { key: 'root', header: 'Root CID', secondary: true, cell: (version) => <Cid value={version.root} copy what="root CID of this version" /> },
            ]}
            rowActions={(version) => (
              <Button
                size="sm"
                variant={version.root === selected ? 'primary' : 'secondary'}
                aria-pressed={version.root === selected}
                aria-label={`Browse the version of ${formatVersionTime(version.created_at)}`}
                onClick={() => select(version)}
              >
                Browse
              </Button>
            )}
          />
          {shown && versions.data && shown.length < versions.data.total ? (
            <div className="row">
              <Button variant="secondary" busy={versions.loading} onClick={() => setLimit((value) => value + PAGE)}>
                Show {formatCount(Math.min(PAGE, versions.data.total - shown.length))} more
              </Button>
              <span className="muted">
                {formatCount(shown.length)} of {formatCount(versions.data.total)} versions
              </span>
            </div>
          ) : null}
        </div>
      </Section>
      {selectedVersion && shown ? (
        <Section
          title={`Version of ${formatVersionTime(selectedVersion.created_at)}`}
          className="version-section"
          description={
            selectedVersion.root === current ? 'The current version: what the folder holds now.' : <RelativeTime unixSeconds={selectedVersion.created_at} />
          }
          actions={
            <>
              <Button variant="primary" icon="refresh" onClick={() => restore(selectedVersion.root, '', 'dir')}>
                Restore whole folder to this version
              </Button>
              <IconButton icon="close" label="Close this version" onClick={() => setSelected(null)} />
            </>
          }
        >
          <div className="stack">
            <h3>Files</h3>
            <VersionTree
              key={selectedVersion.root}
              folderId={folder.id}
              folderName={folderName(folder.path)}
              root={selectedVersion.root}
              onRestore={(path, kind) => restore(selectedVersion.root, path, kind)}
            />
            <h3>Changes</h3>
            {diffSides && shown.length > 1 ? (
              <VersionDiff
                folderId={folder.id}
                versions={shown}
                from={diffSides.from}
                to={diffSides.to}
                onChange={(from, to) => setCompare({ from, to })}
                onRestore={restore}
              />
            ) : (
              <p className="muted">This is the only version: there is nothing to compare it with yet.</p>
            )}
          </div>
        </Section>
      ) : null}
      <RestoreDialog folderId={folder.id} folderPath={folder.path} target={restoring} onClose={() => setRestoring(null)} onRestored={onChanged} />
    </>
  );
}

/** The retention policy in words, with a way to change it (the service checks custom tiers: its 400 is shown here). */
function RetentionPolicy({ folder, onSaved }: { folder: SyncFolderDetail; onSaved: () => void }) {
  const api = useApi();
  const toasts = useToasts();
  const [editing, setEditing] = useState(false);
  const [choice, setChoice] = useState<RetentionChoice>(retentionChoice(folder.retention));
  const [custom, setCustom] = useState(folder.retention);
  const save = useAction((signal, keep: string) => api.sync.setRetention(folder.id, keep, signal));

  const start = () => {
    setChoice(retentionChoice(folder.retention));
    setCustom(retentionChoice(folder.retention) === 'custom' ? folder.retention : '');
    save.clearError();
    setEditing(true);
  };
  const submit = () => {
    void save.run(retentionText(choice, custom)).then((result) => {
      if (!result.ok) return;
      setEditing(false);
      onSaved();
      toasts.show(`History now keeps: ${describeRetention(result.value)}`);
    });
  };

  return (
    <div className="retention">
      <div className="retention-summary">
        <p>
          <strong>Kept:</strong> {describeRetention(folder.retention)} <span className="muted">({folder.retention})</span>
        </p>
        <p className="muted" data-testid="history-bytes">
          {describeHistoryBytes(folder.history_bytes)}
        </p>
      </div>
      {editing ? (
        <form
          className="stack retention-form"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <ChoiceGroup<RetentionChoice>
            legend="Versions to keep"
            value={choice}
            onChange={(value) => {
              setChoice(value);
              save.clearError();
            }}
            options={[
              { value: 'default', label: 'Default' },
              { value: 'all', label: 'All' },
              { value: 'none', label: 'Only the current one' },
              { value: 'custom', label: 'Custom' },
            ]}
            hint={
              choice === 'custom'
                ? undefined
                : choice === 'none'
                  ? 'Older versions are let go now; garbage collection then frees what only they held.'
                  : describeRetention(retentionText(choice, ''))
            }
          />
          {choice === 'custom' ? (
            <TextField
              label="Policy"
              value={custom}
              error={save.error}
              hint="Tiers of age:interval, such as 24h:all,30d:1d,1y:1w (every version of a day, one a day for 30 days, one a week for a year)."
              spellCheck={false}
              autoComplete="off"
              className="mono"
              onChange={(event) => {
                setCustom(event.target.value);
                save.clearError();
              }}
            />
          ) : null}
          {choice !== 'custom' ? <InlineError message={save.error} /> : null}
          <div className="row">
            <Button type="submit" variant="primary" busy={save.pending} busyLabel="Saving…">
              Save
            </Button>
            <Button variant="secondary" disabled={save.pending} onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <Button variant="secondary" size="sm" icon="edit" onClick={start}>
          Change what is kept
        </Button>
      )}
    </div>
  );
}
