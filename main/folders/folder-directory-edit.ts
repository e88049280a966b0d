import type { CID } from 'multiformats/cid';
import { editDirectory, type DirectoryBlockstore, type DirectoryChanges, type DirectoryEditResult, type DirectoryStats } from '../content/directory/index.js';
import type { FoldersContext } from './context.js';

export interface FolderDirectoryEditOptions {
  signal?: AbortSignal;
  /** Stats the caller knows of directories it made, so editing one again does not walk a whole HAMT. */
  statsOf?: (cid: CID) => DirectoryStats | undefined;
}

/**
 * Edits one directory with the folders' layout and their one shard cache, writing to `store`: how a
 * sync folder builds its tree, a directory at a time, into the blocks its batch stages. The folder
 * rules (membership, pins) are the folder operation's; a sync folder's tree is its own.
 */
export async function editFolderDirectory(
  ctx: Pick<FoldersContext, 'layout' | 'shardCache'>,
  store: DirectoryBlockstore,
  root: CID,
  changes: DirectoryChanges,
  options: FolderDirectoryEditOptions = {},
): Promise<DirectoryEditResult> {
  return editDirectory(store, root, changes, { ...ctx.layout(), signal: options.signal, shardCache: ctx.shardCache, statsOf: options.statsOf });
}
