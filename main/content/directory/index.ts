export { editDirectory, prepareDirectoryEdit, directoryStats, type PreparedDirectoryEdit } from './edit-directory.js';
export { setPath, removePath, lookupEntry } from './directory-paths.js';
export { validateEntryName } from './entry-name.js';
export { createShardCache, type ShardCache } from './shard-cache.js';
export { EMPTY_DIRECTORY_CID } from './blocks.js';
export {
  DEFAULT_LAYOUT,
  type DirectoryBlockstore,
  type DirectoryChanges,
  type DirectoryEditOptions,
  type DirectoryEditResult,
  type DirectoryEntry,
  type DirectoryLayout,
  type DirectoryStats,
  type ShardSplitStrategy,
} from './types.js';
