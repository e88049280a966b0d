import type { SyncVersion } from '../../../shared/api-types.js';
import { Button, IconButton } from '../../components/button.js';
import { RelativeTime } from '../../components/relative-time.js';
import { Section } from '../../components/section.js';
import { formatVersionTime } from '../../lib/sync-history.js';
import { VersionDiff } from './version-diff.js';
import { VersionTree } from './version-tree.js';

export interface VersionSectionProps {
  folderId: string;
  folderName: string;
  /** The version opened. */
  version: SyncVersion;
  /** The versions listed, newest first (the first is the current one). */
  versions: readonly SyncVersion[];
  /** The two versions compared, when the user chose them; otherwise this version against the current one. */
  compare: { from: string; to: string } | null;
  onCompare: (from: string, to: string) => void;
  onRestore: (root: string, path: string, kind: 'file' | 'dir') => void;
  onClose: () => void;
}

/** One version opened: its files (browse, restore), and what changed between it and another. */
export function VersionSection({ folderId, folderName, version, versions, compare, onCompare, onRestore, onClose }: VersionSectionProps) {
  const current = versions[0]?.root;
  const diffSides = compare ?? (current ? { from: version.root, to: current } : null);
  return (
    <Section
      title={`Version of ${formatVersionTime(version.created_at)}`}
      className="version-section"
      description={version.root === current ? 'The current version: what the folder holds now.' : <RelativeTime unixSeconds={version.created_at} />}
      actions={
        <>
          <Button variant="primary" icon="refresh" onClick={() => onRestore(version.root, '', 'dir')}>
            Restore whole folder to this version
          </Button>
          <IconButton icon="close" label="Close this version" onClick={onClose} />
        </>
      }
    >
      <div className="stack">
        <h3>Files</h3>
        <VersionTree
          key={version.root}
          folderId={folderId}
          folderName={folderName}
          root={version.root}
          onRestore={(path, kind) => onRestore(version.root, path, kind)}
        />
        <h3>Changes</h3>
        {diffSides && versions.length > 1 ? (
          <VersionDiff folderId={folderId} versions={versions} from={diffSides.from} to={diffSides.to} onChange={onCompare} onRestore={onRestore} />
        ) : (
          <p className="muted">This is the only version: there is nothing to compare it with yet.</p>
        )}
      </div>
    </Section>
  );
}
