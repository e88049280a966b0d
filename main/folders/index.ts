export { createFoldersContext, type FoldersContext, type FoldersInit } from './context.js';
export type { FolderPinChanges, FolderPins } from './folder-pins.js';
export { moveFolderPins } from './folder-pin-moves.js';
export { editFolderDirectory, type FolderDirectoryEditOptions } from './folder-directory-edit.js';
export { importFolder, type FolderImportOptions, type FolderSummary } from './folder-import.js';
export { applyFolderOperation, MAX_ADDS_PER_OPERATION, type FolderOperation, type FolderOperationResult } from './folder-operation.js';
export { forgetCollectedFolderRoots } from './forget-collected.js';
