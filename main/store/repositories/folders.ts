export type FolderRootState = 'importing' | 'ready';

export type FolderOrigin = 'import' | 'operation';

export interface FolderRootStats {
  kind: 'plain' | 'hamt';
  entries: number;
  linksBytes: number;
  blockBytes: number;
}

export interface FolderRootRow {
  cid: string;
  state: FolderRootState;
  /** Null while the import still runs. */
  stats: FolderRootStats | null;
  createdAt: number;
}

/** Folder roots and which accounts own them. */
export interface FoldersRepository {
  folderRootOf(cid: string): Promise<FolderRootRow | null>;
  /** Starts an import: a root row in state `importing`, unless the root is already known. */
  insertImportingFolderRoot(cid: string, createdAt: number): Promise<boolean>;
  /** Records a root as ready with its stats (the end of an import, or a root an operation made). */
  upsertReadyFolderRoot(cid: string, stats: FolderRootStats, createdAt: number): Promise<void>;
  /** Drops a root and its members (a failed import, or imports a restart interrupted). */
  deleteFolderRoot(cid: string): Promise<void>;
  deleteImportingFolderRoots(): Promise<number>;
  isFolderMember(accountId: number, cid: string): Promise<boolean>;
  insertFolderMember(accountId: number, cid: string, origin: FolderOrigin, createdAt: number): Promise<void>;
  /** Ready roots in CID order after `after` (paging): what pruning after a GC cycle looks at. */
  readyFolderRootCidsAfter(after: string, limit: number): Promise<string[]>;
  /** How many member rows there are: the table that grows with every operation until its roots are collected. */
  countFolderMembers(): Promise<number>;
}
