import { useRef, useState } from 'react';
import type { SyncAddResult, SyncFolderView } from '../../../shared/api-types.js';
import { Button } from '../../components/button.js';
import { DropZone } from '../../components/drop-zone.js';
import { EmptyState } from '../../components/empty-state.js';
import { InlineError } from '../../components/inline-error.js';
import { Page } from '../../components/page.js';
import { useToasts } from '../../components/toasts.js';
import { useServiceFacts } from '../../data/service.js';
import { useSyncFolders } from '../../data/sync-folders.js';
import { desktopBridge } from '../../desktop-bridge.js';
import { isFollowed } from '../../lib/followed-folders.js';
import { folderName } from '../../lib/sync-folders.js';
import { BrowserAddFolder } from './browser-add-folder.js';
import { FollowFolderDialog } from './follow-folder-dialog.js';
import { SyncOwnerOnly } from './owner-only.js';
import { RemoveFolderDialog } from './remove-folder-dialog.js';
import { SyncFoldersTable } from './sync-folders-table.js';
import { useAddFolders } from './use-add-folders.js';
import { useFolderCommands } from './use-folder-commands.js';
import { useFolderDrops, type FolderDrops } from './use-folder-drops.js';
import './sync.css';

const DESCRIPTION =
  "Folders on this computer kept pinned and published under an IPNS name as they change, and folders that follow another machine's. Progress and states update by themselves.";

/**
 * The sync folders: one row each with its state and progress (live: the request cache follows `event:
 * sync`), root and IPNS name, Pause/Resume, Rescan, Retry and Remove; and adding folders: in the desktop
 * app a dropped or picked folder starts syncing at once, in a browser the page says why it cannot and what
 * works instead.
 */
export function SyncPage() {
  const toasts = useToasts();
  const inDesktop = desktopBridge() !== null;
  const facts = useServiceFacts().data;
  const folders = useSyncFolders();
  const commands = useFolderCommands();
  const [removing, setRemoving] = useState<SyncFolderView | null>(null);
  const [dropped, setDropped] = useState<string | null>(null);
  const [following, setFollowing] = useState(false);
  // A folder dropped while the follow form is open is where to follow into, not a folder to sync.
  const [followDrop, setFollowDrop] = useState<string | null>(null);
  const pathField = useRef<HTMLInputElement>(null);

  const announceAdded = (added: readonly SyncAddResult[]) => {
    const first = added[0];
    if (!first) return;
    toasts.show(
      added.length === 1
        ? `Syncing ${folderName(first.path)}: its first scan has started.`
        : `Syncing ${added.length} folders: their first scans have started.`,
    );
  };
  const adder = useAddFolders(announceAdded);
  const drops = useFolderDrops({
    adder,
    following,
    onFollowDrop: setFollowDrop,
    onUnlocatedDrop: (name) => {
      setDropped(name);
      pathField.current?.focus();
    },
    focusPathField: () => pathField.current?.focus(),
  });
  const closeFollow = () => {
    setFollowing(false);
    setFollowDrop(null);
  };

  if (folders.data === null) {
    return (
      <Page title="Sync" description={DESCRIPTION}>
        <SyncOwnerOnly />
      </Page>
    );
  }

  return (
    <Page
      title="Sync"
      description={DESCRIPTION}
      actions={
        <>
          <Button icon="download" onClick={() => setFollowing(true)}>
            Follow a folder
          </Button>
          <Button variant="primary" icon="plus" busy={adder.pending} busyLabel="Adding…" onClick={() => void drops.pickFolder()}>
            Add folder…
          </Button>
        </>
      }
    >
      <SyncDropArea drops={drops} following={following} inDesktop={inDesktop} problems={adder.error} />
      <SyncFoldersTable
        rows={folders.data}
        loading={folders.loading}
        waiting={folders.waiting}
        error={folders.error}
        onRetryLoad={folders.reload}
        commands={commands}
        onRemove={setRemoving}
        publicGateway={facts?.public_gateway ?? false}
        empty={<NoFoldersYet inDesktop={inDesktop} />}
      />
      {inDesktop ? null : <BrowserAddFolder dataDir={facts?.data_dir} dropped={dropped} pathRef={pathField} onAdded={(added) => announceAdded([added])} />}
      <FollowFolderDialog
        open={following}
        droppedPath={followDrop}
        onClose={closeFollow}
        onFollowed={(row) => {
          closeFollow();
          toasts.show(`Following into ${folderName(row.path)}: its first version is on the way.`);
        }}
      />
      <RemoveFolderDialog
        folder={removing}
        onClose={() => setRemoving(null)}
        onRemoved={(folder) =>
          toasts.show(
            isFollowed(folder)
              ? `${folderName(folder.path)} is no longer followed. Its files stay on this computer.`
              : `${folderName(folder.path)} is no longer synced. Its last root stays pinned.`,
          )
        }
      />
    </Page>
  );
}

/** The whole page takes a dropped folder; in the desktop app it says how, and what went wrong adding one. */
function SyncDropArea({ drops, following, inDesktop, problems }: { drops: FolderDrops; following: boolean; inDesktop: boolean; problems: string | null }) {
  return (
    <>
      <DropZone
        overlayLabel={
          following && drops.canLocate ? 'Drop the folder to follow into' : drops.canLocate ? 'Drop a folder to sync it' : 'Drop a folder to see how to sync it'
        }
        disabled={following && !drops.canLocate}
        icon="folder"
        onDrop={drops.drop}
        hint={
          inDesktop ? (
            <>
              Drop a folder anywhere on this page to sync it, or choose one with <strong>Add folder…</strong>. Its root is pinned and published under an IPNS
              name, and every change follows within a second or so. To mirror another machine's folder here, use <strong>Follow a folder</strong>.
            </>
          ) : undefined
        }
      />
      {inDesktop ? (
        <div className="add-problems">
          <InlineError message={problems} />
        </div>
      ) : null}
    </>
  );
}

function NoFoldersYet({ inDesktop }: { inDesktop: boolean }) {
  return (
    <EmptyState icon="sync" title="No folders are synced yet">
      {inDesktop
        ? 'Drop a folder on this page or choose one with Add folder…: it is pinned, published under an IPNS name, and kept current as you change it.'
        : 'Add one below by its path or from a terminal: it is pinned, published under an IPNS name, and kept current as you change it.'}
    </EmptyState>
  );
}
