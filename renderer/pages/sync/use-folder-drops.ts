import type { FolderToAdd } from '../../data/sync-actions.js';
import { desktopBridge } from '../../desktop-bridge.js';
import { describeError } from '../../lib/messages.js';
import { folderName } from '../../lib/sync-folders.js';
import type { AddFolders } from './use-add-folders.js';

export interface FolderDropsInit {
  adder: AddFolders;
  /** The follow form is open: a dropped folder is where to follow into, not a folder to sync. */
  following: boolean;
  onFollowDrop: (path: string) => void;
  /** A browser cannot locate a dropped folder: the page says so, naming it. */
  onUnlocatedDrop: (name: string) => void;
  /** A browser has no picker: "Add folder…" goes to the path field instead. */
  focusPathField: () => void;
}

export interface FolderDrops {
  /** The desktop app can tell where a dropped folder is. */
  canLocate: boolean;
  /** "Add folder…": the desktop app's picker, then the folder syncs. */
  pickFolder: () => Promise<void>;
  drop: (data: DataTransfer) => void;
}

/**
 * Folders dropped on the Sync page or chosen with "Add folder…". The desktop app locates a dropped folder
 * (pathForFile) and offers a native picker, and the folders start syncing at once; a browser can do
 * neither, so the page says what works instead.
 */
export function useFolderDrops({ adder, following, onFollowDrop, onUnlocatedDrop, focusPathField }: FolderDropsInit): FolderDrops {
  const bridge = desktopBridge();
  const locate = bridge?.pathForFile?.bind(bridge);

  const pickFolder = async () => {
    if (!bridge) {
      focusPathField();
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
      if (path) onFollowDrop(path);
      return;
    }
    if (!locate) {
      onUnlocatedDrop(first.name);
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

  return { canLocate: locate !== undefined, pickFolder, drop };
}
