import type { UnixfsImportOptions } from '../../../shared/unixfs-profiles.js';
import type { FolderCarProgress, FolderEntry } from './folder-car.js';

/** What the page sends the folder-CAR worker: the folder's entries (Files are passed by reference, not copied). */
export interface FolderCarRequest {
  entries: FolderEntry[];
  layout: UnixfsImportOptions;
}

/** What the worker answers: progress a few times a second, then the CAR or why it failed. */
export type FolderCarReply =
  ({ type: 'progress' } & FolderCarProgress) | { type: 'done'; root: string; car: Blob; blocks: number } | { type: 'failed'; message: string };
