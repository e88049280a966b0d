export type SyncFolderState = 'scanning' | 'syncing' | 'idle' | 'paused' | 'error';

export type SyncEntryKind = 'file' | 'dir';

/** 'sync' publishes the folder's content; 'follow' mirrors an IPNS name held elsewhere into it (migration 20). */
export type SyncFolderMode = 'sync' | 'follow';

/** Where a followed folder differs from the version it holds (main/sync/follow/local-changes.ts). */
export interface FollowLocalChange {
  /** Relative, `/`-separated. */
  path: string;
  change: 'modified' | 'added' | 'deleted';
  /** The incoming versions written beside it, relative to the folder. */
  beside: string[];
}

export interface SyncFolderRow {
  id: string;
  accountId: number;
  path: string;
  ipnsName: string;
  rootCid: string;
  state: SyncFolderState;
  error: string;
  userPaused: boolean;
  /** `fs.stat(root).dev` as a decimal string ('' before the first scan). */
  deviceId: string;
  caseInsensitive: boolean;
  ignorePatterns: string[];
  files: number;
  bytes: number;
  createdAt: number;
  lastSyncedAt: number;
  /** The folder's retention policy in its text form (main/sync/retention.ts); null: the default. */
  retention: string | null;
  mode: SyncFolderMode;
  /** The followed IPNS name (canonical k51…); '' for a synced folder. */
  followName: string;
  /** Gateway URLs asked for the followed name's records and blocks besides the network settings' sources. */
  followSources: string[];
  /** The sequence of the record whose root the followed folder holds, as decimal text; '' before the first. */
  followSeq: string;
  /** Unix seconds of the last look for a newer record of the followed name; 0 before the first. */
  checkedAt: number;
  /** Where the followed folder differed from its version when last looked at (an update, a discard, a start). */
  localChanges: FollowLocalChange[];
}

export interface SyncEntry {
  /** Path as the folder's file system compares it (case-folded where it ignores case). */
  pathKey: string;
  /** Relative, `/`-separated, as spelled on disk. */
  path: string;
  kind: SyncEntryKind;
  size: number;
  mtimeMs: number;
  ino: number;
  cid: string;
}

/** One staged change of a prepared batch: `put` writes an entry, `delete_tree` drops a path and all below it. */
export type JournalOp =
  | ({
      op: 'put';
    } & SyncEntry)
  | {
      op: 'delete_tree';
      pathKey: string;
      path: string;
      kind: SyncEntryKind;
    };

export interface SyncJournal {
  folderId: string;
  oldRoot: string;
  newRoot: string;
  createdAt: number;
  ops: JournalOp[];
}

export interface NewSyncFolder {
  id: string;
  accountId: number;
  path: string;
  ipnsName: string;
  caseInsensitive: boolean;
  ignorePatterns: readonly string[];
  createdAt: number;
  /** Present: the folder follows this IPNS name (mode 'follow'); absent: a synced folder. */
  follow?: { name: string; sources: readonly string[] };
}

/** A settled batch as the folder's page lists it (migration 15). */
export interface SyncBatchRow {
  root: string;
  finishedAt: number;
  /** Files. */
  added: number;
  modified: number;
  removed: number;
  /** Bytes of the files added or modified. */
  bytes: number;
}

/** How many settled batches each folder's page lists (versions, and notes of released ones). */
export const KEPT_SYNC_BATCHES = 20;

/** A kept version whose bytes beside its next newer kept version are to be computed (migration 17). */
export interface PendingHistoryBytes {
  id: number;
  root: string;
  /** The next newer kept version's root. */
  newerRoot: string;
}

/** A kept version of a folder: its batch row (id for retention). */
export interface SyncVersionRow extends SyncBatchRow {
  id: number;
}

/** Sync folders, their entries, prepared batches (the journal) and versions. */
export interface SyncRepository {
  /** Throws {@link UniqueViolation} when the path is already synced. */
  insertSyncFolder(folder: NewSyncFolder): Promise<SyncFolderRow>;
  getSyncFolder(id: string): Promise<SyncFolderRow | undefined>;
  getSyncFolderByPath(folderPath: string): Promise<SyncFolderRow | undefined>;
  /** Newest first, like every list of the API. */
  listSyncFolders(accountId?: number): Promise<SyncFolderRow[]>;
  /**
   * Bytes only each folder's history holds: the unique bytes of its kept versions but the current one
   * (migration 17); 0 for an unknown id. Apart from the row, so the runner's reads never pay for the sum.
   */
  folderHistoryBytes(ids: readonly string[]): Promise<Map<string, number>>;
  setSyncFolderState(id: string, state: SyncFolderState, error: string): Promise<void>;
  setSyncFolderUserPaused(id: string, paused: boolean): Promise<void>;
  setSyncFolderDevice(id: string, deviceId: string): Promise<void>;
  setSyncFolderIgnore(id: string, patterns: readonly string[]): Promise<void>;
  setSyncFolderIpnsName(id: string, ipnsName: string): Promise<void>;
  /** Removes the folder, its entries and any prepared batch. Pins and names are not touched. */
  deleteSyncFolder(id: string): Promise<boolean>;
  /** A followed folder looked for a newer record of its name at `checkedAt` (unix seconds). */
  setFollowChecked(id: string, checkedAt: number): Promise<void>;
  /**
   * The sequence of the record whose root the followed folder now holds (decimal text): set once the applier
   * committed that root (follow-applier.ts), so a record no newer is not fetched again.
   */
  setFollowSequence(id: string, sequence: string): Promise<void>;
  /** The followed folder's local changes, as the last update, discard or start found them. */
  setFollowLocalChanges(id: string, changes: readonly FollowLocalChange[]): Promise<void>;
  listSyncEntries(folderId: string): Promise<SyncEntry[]>;
  getSyncEntry(folderId: string, pathKey: string): Promise<SyncEntry | undefined>;
  /** Entries strictly below folder `dirKey` ('' = the whole tree). */
  listSyncEntriesUnder(folderId: string, dirKey: string): Promise<SyncEntry[]>;
  getSyncJournal(folderId: string): Promise<SyncJournal | undefined>;
  /** Records a prepared batch in one transaction; replaces any older prepared batch of the folder. */
  writeSyncJournal(journal: SyncJournal): Promise<void>;
  discardSyncJournal(folderId: string): Promise<void>;
  /** The folder's kept versions, newest first, `limit` from position `start`. */
  syncVersions(folderId: string, limit: number, start: number): Promise<SyncVersionRow[]>;
  countSyncVersions(folderId: string): Promise<number>;
  /**
   * The folder's kept versions, but the newest, whose unique bytes are not known yet, each with its next
   * newer kept version's root, newest first, at most `limit`.
   */
  pendingHistoryBytes(folderId: string, limit: number): Promise<PendingHistoryBytes[]>;
  /** Records a version's unique bytes, unless it is no longer kept or its next newer kept version changed since. */
  setHistoryBytes(id: number, newerRoot: string, bytes: number): Promise<boolean>;
  /** The folder's newest kept version whose root is `root`, if any. */
  syncVersionByRoot(folderId: string, root: string): Promise<SyncVersionRow | null>;
  /** Whether `root` is a kept version of the folder. */
  isSyncVersion(folderId: string, root: string): Promise<boolean>;
  /** Releases versions (they become notes) and prunes the notes; their roots are no longer held from GC. */
  releaseSyncVersions(folderId: string, ids: readonly number[]): Promise<void>;
  /** Every root a kept version of any folder holds: garbage collection treats each as a root. */
  keptVersionRoots(): Promise<string[]>;
  setSyncRetention(folderId: string, retention: string | null): Promise<void>;
  /** The folder's settled batches, newest first. */
  recentSyncBatches(folderId: string, limit?: number): Promise<SyncBatchRow[]>;
  /**
   * Makes a prepared batch the folder's state, in one transaction: applies its entry ops in order,
   * sets the root, the totals and `last_synced_at`, records the batch (files added, modified, removed,
   * bytes) keeping the last KEPT_SYNC_BATCHES, and drops the journal. Returns false (and changes
   * nothing) when no journal for `newRoot` is pending, so a replay is harmless.
   */
  commitSyncJournal(folderId: string, newRoot: string, syncedAt: number): Promise<boolean>;
}
