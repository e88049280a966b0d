import type { Clock } from '../base/clock.js';
import type { LockHold } from '../base/lock.js';
import type { Logger } from '../base/logger.js';
import type { Store } from '../store/repositories/index.js';
import type { SyncFolderRow } from '../store/repositories/sync.js';
import type { RunnerStatus } from './folder-status.js';
import type { FolderPublishOutcome } from './folder-publish.js';
import type { DirOperation, ReconcilerComponents } from './reconciler.js';
import type { SyncEvents } from './sync-events.js';

/** What a folder runner is given and what it answers: runner.ts starts one, its units share these. */

/**
 * Where one batch writes its blocks: staged together and made durable with one commit right before
 * the new root is pinned (one fsync per batch rather than one per file). Uncommitted blocks are
 * invisible, so a batch that fails or is abandoned leaves nothing behind but reclaimable pack bytes.
 */
export interface BlockSession {
  /** See ReconcilerComponents.emptyDirectory. */
  emptyDirectory?: string;
  importFile: ReconcilerComponents['importFile'];
  applyOperation: (dirCid: string, op: DirOperation, options: { signal?: AbortSignal }) => Promise<string>;
  /** Makes every block written so far durable and visible. Once; later calls do nothing. */
  commit(): Promise<void>;
  /** Drops what is staged (after a commit: nothing to drop). */
  abort(): void;
}

/** The other domains, as the composition root wires them; account-aware, folder-agnostic. */
export interface SyncDomains {
  store: Store;
  openSession(): BlockSession;
  /**
   * Pins `newRoot` for the account and unpins `oldRoot`, under the GC lock `holdGc` holds (`hold`).
   * Idempotent; NotFoundError when the new root's blocks are not all held.
   */
  movePin(accountId: number, newRoot: string, oldRoot: string | undefined, pinName: string, hold: LockHold): Promise<void>;
  /**
   * Points `ipnsName` at `root` unless a newer record of the name was seen elsewhere (the same key on another
   * machine: contract section 11): then nothing is published and it answers `conflict`. `force` publishes over
   * such a record, with a sequence above it.
   */
  publish(accountId: number, ipnsName: string, root: string, force?: boolean): Promise<FolderPublishOutcome>;
  /** Creates an IPNS name for the account pointing at `root`; returns the name. */
  createName(accountId: number, root: string): Promise<string>;
  /** Runs `fn` with garbage collection held off (the pins' GC lock, shared); `fn` gets the hold. */
  holdGc<T>(fn: (hold: LockHold) => Promise<T>): Promise<T>;
  logger: Logger;
  clock?: Clock;
  /** The live event stream: told whenever a folder's status (state, progress, root, errors) moves. */
  events?: SyncEvents;
}

export interface RunnerTiming {
  settleMs?: number;
  maxBatchMs?: number;
  stabilityMs?: number;
  stabilityPollMs?: number;
  rootRetryMs?: number;
  errorRetryMs?: number;
}

export interface FolderRunnerInit extends RunnerTiming {
  domains: SyncDomains;
  /** The folder's row as its caller read it: what never changes (path, account, case) and its first rules. */
  folder: RunnerFolder;
}

/** What a runner takes from its folder's row when it starts; the rest it reads when it needs it. */
export type RunnerFolder = Pick<SyncFolderRow, 'id' | 'path' | 'accountId' | 'caseInsensitive' | 'ignorePatterns'>;

export interface FolderRunner {
  readonly folderId: string;
  /**
   * Settles once the first full scan is pinned (and published). Rejects when the first sync fails or
   * the folder is paused before it (the caller of sync/add undoes the add).
   */
  readonly firstSync: Promise<void>;
  status(): RunnerStatus;
  /**
   * A full scan now (its changes settle into a batch as usual); a folder in error, or paused because its
   * root was gone, starts again instead (as `retry`).
   */
  rescan(): void;
  /** A folder in error, or paused because its root was gone, tries again now rather than at its next retry. */
  retry(): void;
  /**
   * Publishes the folder's current root to its name now, between batches (`sync/publish`): `force` over a newer
   * record seen elsewhere. Rejects with ConflictError when the folder has no name or no root yet.
   */
  publishNow(force: boolean): Promise<FolderPublishOutcome>;
  /** Stops watching; an in-flight batch is aborted before its journal, or finished after it. */
  stop(): Promise<void>;
}
