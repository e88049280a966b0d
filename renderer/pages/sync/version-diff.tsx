import type { SyncVersion } from '../../../shared/api-types.js';
import { Button } from '../../components/button.js';
import { InlineError } from '../../components/inline-error.js';
import { Select } from '../../components/select.js';
import { useVersionDiff } from '../../data/sync-versions.js';
import { formatCount } from '../../lib/format.js';
import { restorablePath, formatVersionTime } from '../../lib/sync-history.js';

export interface VersionDiffProps {
  folderId: string;
  versions: readonly SyncVersion[];
  from: string;
  to: string;
  onChange: (from: string, to: string) => void;
  /** Restore `path` from version `root` (the older of the two, where the path exists in it). */
  onRestore: (root: string, path: string, kind: 'file' | 'dir') => void;
}

const versionLabel = (version: SyncVersion, index: number) => `${formatVersionTime(version.created_at)}${index === 0 ? ' (current)' : ''}`;

/**
 * What changed between two versions (GET /api/v0/sync/diff): added, modified and removed paths, each one
 * that the older version has with its Restore.
 */
export function VersionDiff({ folderId, versions, from, to, onChange, onRestore }: VersionDiffProps) {
  const diff = useVersionDiff(folderId, from, to);
  const options = versions.map((version, index) => ({ value: version.root, label: versionLabel(version, index) }));
  const time = (root: string) => versions.find((version) => version.root === root)?.created_at ?? 0;
  // The older side is the one a removed or modified path can come back from.
  const older = time(from) <= time(to) ? from : to;
  const sameVersion = from === to;

  const group = (title: string, paths: readonly string[] | undefined, restoreFrom: string | null, tone: string) => (
    <div className={`diff-group diff-${tone}`}>
      <h4>
        {title} <span className="muted">({formatCount(paths?.length ?? 0)})</span>
      </h4>
      {paths === undefined || paths.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ul aria-label={title}>
          {paths.map((path) => (
            <li key={path}>
              <span className="mono diff-path">{path}</span>
              {restoreFrom ? (
                <Button
                  size="sm"
                  variant="ghost"
                  icon="refresh"
                  aria-label={`Restore ${path} as in the version of ${formatVersionTime(time(restoreFrom))}`}
                  onClick={() => onRestore(restoreFrom, restorablePath(path), path.endsWith('/') ? 'dir' : 'file')}
                >
                  Restore
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );

  // From older to newer, "added" paths are not in the older version; read the other way round, "removed" ones are not.
  const forward = older === from;
  return (
    <div className="stack version-diff">
      <div className="diff-pickers">
        <Select label="From" value={from} options={options} onChange={(value) => onChange(value, to)} />
        <Select label="To" value={to} options={options} onChange={(value) => onChange(from, value)} />
        <Button variant="ghost" size="sm" icon="refresh" aria-label="Swap From and To" onClick={() => onChange(to, from)}>
          Swap
        </Button>
      </div>
      {sameVersion ? <p className="muted">Choose two different versions to see what changed.</p> : null}
      {diff.error ? <InlineError message={diff.error} onRetry={diff.reload} /> : null}
      {!sameVersion && diff.data === undefined && !diff.error ? (
        <p className="muted" role="status">
          Comparing…
        </p>
      ) : null}
      {!sameVersion && diff.data ? (
        <>
          <p className="muted" role="status">
            {diff.data.added.length + diff.data.modified.length + diff.data.removed.length === 0
              ? 'These two versions hold the same files.'
              : `Restore brings a path back as it was in the older version, of ${formatVersionTime(time(older))}.`}
          </p>
          <div className="diff-groups">
            {group('Added', diff.data.added, forward ? null : older, 'added')}
            {group('Modified', diff.data.modified, older, 'modified')}
            {group('Removed', diff.data.removed, forward ? older : null, 'removed')}
          </div>
        </>
      ) : null}
    </div>
  );
}
