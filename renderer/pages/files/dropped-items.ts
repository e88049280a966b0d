/**
 * What the user gave the Files page, as uploads: every loose file is one upload (its own CID), every
 * folder one upload (one directory CID) with its files at paths inside it. Three ways in:
 * - a drop: each DataTransfer item's file-system entry (webkitGetAsEntry), read recursively, so a folder
 *   brings its subfolders, and empty folders too;
 * - the "Choose folder…" picker (input webkitdirectory): files with a `webkitRelativePath` that starts
 *   with the folder's name (a picker shows no empty folders);
 * - the "Choose files…" picker: loose files.
 * Typed structurally (no DOM types), so the folder walk runs under Node in the unit tests with fake entries.
 */
import type { FolderEntry } from './folder-car.js';

/** A file as the browser gives it: a Blob with a name (and, from a folder picker, its path). */
export type PickedFile = Blob & { readonly name: string; readonly webkitRelativePath?: string };

export type UploadSource =
  { kind: 'file'; name: string; file: PickedFile } | { kind: 'folder'; name: string; entries: FolderEntry[]; files: number; bytes: number };

/** The parts of the File and Directory Entries API used here (FileSystemEntry and its two kinds). */
export interface DroppedEntry {
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  readonly name: string;
}

interface DroppedFileEntry extends DroppedEntry {
  file(success: (file: PickedFile) => void, failure?: (error: unknown) => void): void;
}

interface DroppedDirectoryEntry extends DroppedEntry {
  createReader(): { readEntries(success: (entries: DroppedEntry[]) => void, failure?: (error: unknown) => void): void };
}

/** The parts of a DataTransferItem used here. */
export interface DroppedItem {
  readonly kind: string;
  getAsFile(): PickedFile | null;
  webkitGetAsEntry?(): DroppedEntry | null;
}

export class DropReadError extends Error {
  override readonly name = 'DropReadError';
}

const reason = (error: unknown): string =>
  error instanceof Error ? error.message : typeof error === 'object' && error !== null ? String((error as { name?: unknown }).name) : String(error);

/**
 * The uploads of a drop. Call it inside the drop event: the browser empties the DataTransfer once the
 * event returns, so every item's entry is taken at once, and the folders are read afterwards.
 */
export function sourcesFromDrop(items: ArrayLike<DroppedItem>): Promise<UploadSource[]> {
  const taken: Array<{ entry: DroppedEntry | null; file: PickedFile | null }> = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item?.kind !== 'file') continue;
    taken.push({ entry: item.webkitGetAsEntry?.() ?? null, file: item.getAsFile() });
  }
  return Promise.all(
    taken.map(async ({ entry, file }): Promise<UploadSource | null> => {
      if (entry && isDirectory(entry)) return readFolder(entry);
      if (file) return { kind: 'file', name: file.name, file };
      if (entry && isFileEntry(entry)) {
        const read = await fileOf(entry, entry.name);
        return { kind: 'file', name: read.name, file: read };
      }
      return null;
    }),
  ).then((sources) => sources.filter((source): source is UploadSource => source !== null));
}

/** The uploads of a file input: loose files, or (webkitdirectory) the files of the folders picked, grouped by folder. */
export function sourcesFromInput(files: ArrayLike<PickedFile>): UploadSource[] {
  const sources: UploadSource[] = [];
  const folders = new Map<string, Extract<UploadSource, { kind: 'folder' }>>();
  for (let i = 0; i < files.length; i++) {
    const file = files[i];
    if (!file) continue;
    const relative = file.webkitRelativePath ?? '';
    const slash = relative.indexOf('/');
    if (slash <= 0) {
      sources.push({ kind: 'file', name: file.name, file });
      continue;
    }
    const name = relative.slice(0, slash);
    let folder = folders.get(name);
    if (!folder) {
      folder = { kind: 'folder', name, entries: [], files: 0, bytes: 0 };
      folders.set(name, folder);
      sources.push(folder);
    }
    folder.entries.push({ path: relative.slice(slash + 1), file });
    folder.files += 1;
    folder.bytes += file.size;
  }
  return sources;
}

function isDirectory(entry: DroppedEntry): entry is DroppedDirectoryEntry {
  return entry.isDirectory && typeof (entry as Partial<DroppedDirectoryEntry>).createReader === 'function';
}

function isFileEntry(entry: DroppedEntry): entry is DroppedFileEntry {
  return entry.isFile && typeof (entry as Partial<DroppedFileEntry>).file === 'function';
}

function fileOf(entry: DroppedFileEntry, path: string): Promise<PickedFile> {
  return new Promise((resolve, reject) => entry.file(resolve, (error) => reject(new DropReadError(`${path} could not be read (${reason(error)}).`))));
}

/** A directory's children: readEntries answers a batch at a time (100 in Chrome) until it answers none. */
async function childrenOf(directory: DroppedDirectoryEntry, path: string): Promise<DroppedEntry[]> {
  const reader = directory.createReader();
  const children: DroppedEntry[] = [];
  for (;;) {
    const batch = await new Promise<DroppedEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, (error) => reject(new DropReadError(`The folder ${path} could not be read (${reason(error)}).`))),
    );
    if (batch.length === 0) return children;
    children.push(...batch);
  }
}

/** Every file (and empty folder) under a dropped folder, at paths inside it. */
async function readFolder(root: DroppedDirectoryEntry): Promise<UploadSource> {
  const entries: FolderEntry[] = [];
  let bytes = 0;
  let files = 0;
  const walk = async (directory: DroppedDirectoryEntry, path: string): Promise<void> => {
    const children = await childrenOf(directory, path === '' ? root.name : `${root.name}/${path}`);
    if (children.length === 0 && path !== '') entries.push({ path });
    const inside = (child: DroppedEntry) => (path === '' ? child.name : `${path}/${child.name}`);
    // A folder's files are asked for together (each is a round trip to the browser), its folders one by one.
    const read = await Promise.all(
      children.filter(isFileEntry).map(async (child) => ({ path: inside(child), file: await fileOf(child, `${root.name}/${inside(child)}`) })),
    );
    for (const entry of read) {
      entries.push(entry);
      files += 1;
      bytes += entry.file.size;
    }
    for (const child of children.filter(isDirectory)) await walk(child, inside(child));
  };
  await walk(root, '');
  return { kind: 'folder', name: root.name, entries, files, bytes };
}
