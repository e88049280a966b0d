import { useState } from 'react';
import type { SyncFolderDetail, SyncVersion } from '../../../shared/api-types.js';
import { Section } from '../../components/section.js';
import { useSyncVersions } from '../../data/sync-versions.js';
import { folderName } from '../../lib/sync-folders.js';
import { RestoreDialog, type RestoreTarget } from './restore-dialog.js';
import { RetentionPolicy } from './retention-policy.js';
import { VersionSection } from './version-section.js';
import { VersionsTable } from './versions-table.js';

/** Versions asked for at first, and at each "Show more". */
const PAGE = 20;

/**
 * Every kept version of the folder (issue 15): a timeline, newest first, the current one marked; the
 * retention policy and what history holds; a selected version's files (browse, restore) and its diff with
 * another. Live: the request cache loads the versions again when `event: sync` brings the folder a new
 * root or history (data/sync-events.ts).
 */
export function FolderHistory({ folder }: { folder: SyncFolderDetail }) {
  const [limit, setLimit] = useState(PAGE);
  const [selected, setSelected] = useState<string | null>(null);
  const [compare, setCompare] = useState<{ from: string; to: string } | null>(null);
  const [restoring, setRestoring] = useState<RestoreTarget | null>(null);
  const versions = useSyncVersions(folder.id, limit);
  const shown = versions.data?.items;

  const selectedVersion = shown?.find((version) => version.root === selected) ?? null;
  const select = (version: SyncVersion) => {
    setSelected(version.root);
    setCompare(null);
  };
  const restore = (root: string, path: string, kind: 'file' | 'dir') => {
    const version = shown?.find((entry) => entry.root === root);
    setRestoring({ root, path, kind, createdAt: version?.created_at ?? 0 });
  };

  return (
    <>
      <Section
        title="History"
        className="folder-history"
        description="Every kept version of this folder is a complete snapshot: browse it, compare it, and bring back a file, a folder or everything."
      >
        <div className="stack">
          <RetentionPolicy folder={folder} />
          <VersionsTable versions={versions} selected={selected} onSelect={select} more={PAGE} onShowMore={() => setLimit((value) => value + PAGE)} />
        </div>
      </Section>
      {selectedVersion && shown ? (
        <VersionSection
          folderId={folder.id}
          folderName={folderName(folder.path)}
          version={selectedVersion}
          versions={shown}
          compare={compare}
          onCompare={(from, to) => setCompare({ from, to })}
          onRestore={restore}
          onClose={() => setSelected(null)}
        />
      ) : null}
      <RestoreDialog folderId={folder.id} folderPath={folder.path} target={restoring} onClose={() => setRestoring(null)} />
    </>
  );
}
