import { useRef, useState } from 'react';
import type { SyncAddResult, SyncFolderView } from '../../../shared/api-types.js';
import { useResource } from '../../app/hooks/use-resource.js';
import { useApi } from '../../app/session.js';
import { Button } from '../../components/button.js';
import { DropZone } from '../../components/drop-zone.js';
import { EmptyState } from '../../components/empty-state.js';
import { InlineError } from '../../components/inline-error.js';
import { Page } from '../../components/page.js';
import { useToasts } from '../../components/toasts.js';
import { desktopBridge } from '../../desktop-bridge.js';
import { useEvent } from '../../events/events-provider.js';
import { describeError } from '../../lib/messages.js';
import { isFollowed } from '../../lib/followed-folders.js';
import { applySyncEvent, folderName } from '../../lib/sync-folders.js';
import { BrowserAddFolder } from './browser-add-folder.js';
import { FollowFolderDialog } from './follow-folder-dialog.js';
import { isOwnerOnlyRefusal, SyncOwnerOnly } from './owner-only.js';
import { RemoveFolderDialog } from './remove-folder-dialog.js';
import { SyncFoldersTable } from './sync-folders-table.js';
import { useAddFolders, type FolderToAdd } from './use-add-folders.js';
import { useFolderCommands } from './use-folder-commands.js';
import { useServiceFacts } from './use-service-facts.js';
import './sync.css';

const DESCRIPTION =
  "Folders on this computer kept pinned and published under an IPNS name as they change, and folders that follow another machine's. Progress and states update by themselves.";

/**
 * The sync folders: one row each with its state and progress (live: `event: sync`), root and IPNS name,
 * Pause/Resume, Rescan, Retry and Remove; and adding folders: in the desktop app a dropped or picked
 * folder starts syncing at once, in a browser the page says why it cannot and what works instead.
 */
export function SyncPage() {
  const api = useApi();
  const toasts = useToasts();
  const bridge = desktopBridge();
  const facts = useServiceFacts();
  const folders = useResource(
    async (signal): Promise<readonly SyncFolderView[] | null> => {
      try {
        return (await api.sync.list(signal)).items;
      } catch (error) {
        if (isOwnerOnlyRefusal(error)) return null;
        throw error;
      }
    },
    [api],
  );
  useEvent('sync', (event) => folders.update((rows) => (rows ? applySyncEvent(rows, event) : rows)));

  const commands = useFolderCommands(() => folders.reload());
  const [removing, setRemoving] = useState<SyncFolderView | null>(null);
  const [dropped, setDropped] = useState<string | null>(null);
  const [following, setFollowing] = useState(false);
  // A folder dropped while the follow form is open is where to follow into, not a folder to sync.
  const [followDrop, setFollowDrop] = useState<string | null>(null);
  const pathField = useRef<HTMLInputElement>(null);

  const announceAdded = (added: readonly SyncAddResult[]) => {
    folders.reload();
    const first = added[0];
    if (!first) return;
    toasts.show(
      added.length === 1
        ? `Syncing ${folderName(first.path)}: its first scan has started.`
        : `Syncing ${added.length} folders: their first scans have started.`,
    );
  };
  const adder = useAddFolders(announceAdded);

  // The desktop app locates a dropped folder (pathForFile) and offers a native picker; a browser can do neither.
  const locate = bridge?.pathForFile?.bind(bridge);
  const pickFolder = async () => {
    if (!bridge) {
      pathField.current?.focus();
      return;
    }
    adder.setError(null);
    let path: string | null;
    try {
      path = await bridge.pickFolder();
    } catch (error) {
      adder.setError(`The desktop app could not open the folder picker: ${describeError(error)}`);
      return;
    }
    if (path) await adder.add([{ name: folderName(path), path }]);
  };
  const drop = (data: DataTransfer) => {
    const files = [...data.files];
    const first = files[0];
    if (!first) return;
    if (following) {
      const path = locate?.(first) ?? null;
      if (path) setFollowDrop(path);
      return;
    }
    if (!locate) {
      setDropped(first.name);
      pathField.current?.focus();
      return;
    }
    const located: FolderToAdd[] = [];
    const lost: string[] = [];
    for (const file of files) {
      const path = locate(file);
      if (path) located.push({ name: file.name, path });
      else lost.push(file.name);
    }
    const lostMessage =
      lost.length > 0
        ? `The desktop app could not tell where ${lost.join(', ')} ${lost.length === 1 ? 'is' : 'are'}: choose it with Add folder… instead.`
        : null;
    if (located.length === 0) {
      adder.setError(lostMessage);
      return;
    }
    void adder.add(located, lostMessage);
  };

  if (folders.data === null) {
    return (
      <Page title="Sync" description={DESCRIPTION}>
        <SyncOwnerOnly />
      </Page>
    );
  }

  const rows = folders.data;
  const inDesktop = bridge !== null;
  return (
    <Page
      title="Sync"
      description={DESCRIPTION}
      actions={
        <>
          <Button icon="download" onClick={() => setFollowing(true)}>
            Follow a folder
          </Button>
          <Button variant="primary" icon="plus" busy={adder.pending} busyLabel="Adding…" onClick={() => void pickFolder()}>
            Add folder…
          </Button>
        </>
      }
    >
      <DropZone
        overlayLabel={following && locate ? 'Drop the folder to follow into' : locate ? 'Drop a folder to sync it' : 'Drop a folder to see how to sync it'}
        disabled={following && !locate}
        icon="folder"
        onDrop={drop}
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
          <InlineError message={adder.error} />
        </div>
      ) : null}
      <SyncFoldersTable
        rows={rows}
        loading={folders.loading}
        waiting={folders.waiting}
        error={folders.error}
        onRetryLoad={folders.reload}
        commands={commands}
        onRemove={setRemoving}
        publicGateway={facts?.public_gateway ?? false}
        empty={
          <EmptyState icon="sync" title="No folders are synced yet">
            {inDesktop
              ? 'Drop a folder on this page or choose one with Add folder…: it is pinned, published under an IPNS name, and kept current as you change it.'
              : 'Add one below by its path or from a terminal: it is pinned, published under an IPNS name, and kept current as you change it.'}
          </EmptyState>
        }
      />
      {inDesktop ? null : <BrowserAddFolder dataDir={facts?.data_dir} dropped={dropped} pathRef={pathField} onAdded={(added) => announceAdded([added])} />}
      <FollowFolderDialog
        open={following}
        droppedPath={followDrop}
        onClose={() => {
          setFollowing(false);
          setFollowDrop(null);
        }}
        onFollowed={(row) => {
          setFollowing(false);
          setFollowDrop(null);
          folders.update((current) => (current ? applySyncEvent(current, row) : current));
          toasts.show(`Following into ${folderName(row.path)}: its first version is on the way.`);
        }}
      />
      <RemoveFolderDialog
        folder={removing}
        onCancel={() => setRemoving(null)}
        onRemoved={(folder) => {
          setRemoving(null);
          folders.update((current) => (current ? applySyncEvent(current, { id: folder.id, removed: true }) : current));
          toasts.show(
            isFollowed(folder)
              ? `${folderName(folder.path)} is no longer followed. Its files stay on this computer.`
              : `${folderName(folder.path)} is no longer synced. Its last root stays pinned.`,
          );
        }}
      />
    </Page>
  );
}
