import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { SyncFolderDetail } from '../../../shared/api-types.js';
import { CopyButton } from '../../components/copy-button.js';
import { EmptyState } from '../../components/empty-state.js';
import { InlineError } from '../../components/inline-error.js';
import { Page } from '../../components/page.js';
import { useToasts } from '../../components/toasts.js';
import type { ApiQuery } from '../../data/api-query.js';
import { useServiceFacts } from '../../data/service.js';
import { useSyncFolder, type SyncFolderPage as Loaded } from '../../data/sync-folders.js';
import { followOrigin, isFollowed, sourceGateway } from '../../lib/followed-folders.js';
import { folderName } from '../../lib/sync-folders.js';
import { FolderActions } from './folder-actions.js';
import { FolderConflict } from './folder-conflict.js';
import { FolderHistory } from './folder-history.js';
import { FolderProblems } from './folder-problems.js';
import { FolderStatus } from './folder-status.js';
import { FollowingTag } from './following-tag.js';
import { IgnorePatterns } from './ignore-patterns.js';
import { LocalChanges } from './local-changes.js';
import { OpenInFileManager } from './open-in-file-manager.js';
import { SyncOwnerOnly } from './owner-only.js';
import { RemoveFolderDialog } from './remove-folder-dialog.js';
import { useFolderCommands, type FolderCommands } from './use-folder-commands.js';
import './sync.css';

/**
 * One sync folder: its state and progress with the file being read, Retry when it is stalled, what it
 * holds and where it is published (and whether its name is public on the IPFS network: a switch), its
 * errors, its ignore patterns (edit; `.pinfoldignore` read-only) and its history (every kept version:
 * browse, compare, restore; see folder-history.tsx). A followed folder (mode 'follow') shows where it
 * follows from, the version it holds, its last check and its local changes (Discard) instead of publishing
 * and ignore editing; a sync folder whose name was published elsewhere shows the conflict first (Publish
 * mine anyway). Live: the request cache patches the page for `event: sync`, and loads the folder again when
 * a batch settled or its state changed (data/sync-events.ts).
 */
export function SyncFolderPage({ id }: { id: string }) {
  const toasts = useToasts();
  const [, navigate] = useLocation();
  const detail = useSyncFolder(id);
  // Asked beside the folder, not after it: whether the gateway opens links without a key.
  const publicGateway = useServiceFacts().data?.public_gateway ?? false;
  const commands = useFolderCommands();
  const [removing, setRemoving] = useState(false);
  // Every state is one Page in the same place: the h1 that took focus after the navigation keeps it once the folder is there.
  const loaded = detail.data;
  if (loaded?.kind === 'removed' || loaded?.kind === 'missing') {
    return (
      <Page title="Sync folder not found">
        <EmptyState icon="sync" title="This folder is not synced" actions={<Link href="/sync">See all sync folders</Link>}>
          {loaded.kind === 'removed' ? 'It was removed while this page was open. Its last root stays pinned.' : `There is no sync folder with the id ${id}.`}
        </EmptyState>
      </Page>
    );
  }
  if (loaded?.kind === 'owner-only') {
    return (
      <Page title="Sync folder">
        <SyncOwnerOnly />
      </Page>
    );
  }
  if (!loaded) {
    return (
      <Page title="Sync folder">
        {detail.error ? (
          <InlineError message={detail.error} onRetry={detail.reload} />
        ) : (
          <p className="muted" role="status">
            {detail.waiting ? 'Waiting for the Pinfold service…' : 'Loading…'}
          </p>
        )}
      </Page>
    );
  }

  const folder = loaded.folder;
  return (
    <Page
      title={folderName(folder.path)}
      description={<FolderHeading folder={folder} />}
      actions={<FolderActions row={folder} commands={commands} onRemove={() => setRemoving(true)} />}
    >
      <FolderSections folder={folder} detail={detail} commands={commands} publicGateway={publicGateway} />
      <RemoveFolderDialog
        folder={removing ? folder : null}
        onClose={() => setRemoving(false)}
        onRemoved={(removed) => {
          toasts.show(
            isFollowed(removed)
              ? `${folderName(removed.path)} is no longer followed. Its files stay on this computer.`
              : `${folderName(removed.path)} is no longer synced. Its last root stays pinned.`,
          );
          navigate('/sync');
        }}
      />
    </Page>
  );
}

interface FolderSectionsProps {
  folder: SyncFolderDetail;
  detail: ApiQuery<Loaded>;
  commands: FolderCommands;
  publicGateway: boolean;
}

/** What the page shows of a folder, in its order; a followed folder's differ (local changes, no conflict or ignore patterns). */
function FolderSections({ folder, detail, commands, publicGateway }: FolderSectionsProps) {
  const followed = isFollowed(folder);
  return (
    <>
      {detail.error ? <InlineError message={detail.error} onRetry={detail.reload} /> : null}
      {followed ? null : <FolderConflict folder={folder} />}
      <FolderStatus folder={folder} commands={commands} publicGateway={publicGateway} />
      {followed ? <LocalChanges folder={folder} /> : null}
      <FolderProblems folder={folder} />
      {followed ? null : <IgnorePatterns folder={folder} />}
      <FolderHistory folder={folder} />
    </>
  );
}

/** Under the folder's name: where a followed folder follows from, and the folder's path (Copy, and the file manager in the desktop app). */
function FolderHeading({ folder }: { folder: SyncFolderDetail }) {
  return (
    <>
      {isFollowed(folder) ? (
        <span className="folder-heading-mode">
          <FollowingTag /> from <span className={sourceGateway(folder.source) ? '' : 'mono'}>{followOrigin(folder)}</span>
        </span>
      ) : null}
      <span className="folder-heading-path">
        <span className="mono">{folder.path}</span>
        <CopyButton value={folder.path} what="folder path" compact size="sm" />
        <OpenInFileManager path={folder.path} />
      </span>
    </>
  );
}
