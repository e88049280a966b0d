import type { CID } from 'multiformats/cid';
import type { Clock } from '../../base/clock.js';
import type { FetchProgress } from '../../network/dag-fetch.js';
import type { SyncFolderRow } from '../../store/repositories/sync.js';
import { withStallLimit } from './fetch-stall.js';
import { applyFollowedVersion, type FollowApplyProgress } from './follow-applier.js';
import { FollowCycleError } from './follow-cycle-plan.js';
import type { FollowDomains } from './follow-domains.js';
import type { FollowStatusBoard } from './follow-status.js';
import { followSourceLabel } from './follow-target.js';

/** What fetching and writing a followed folder's version needs (the follow runner's). */
export interface VersionDeps {
  domains: FollowDomains;
  folderId: string;
  /** The name of the followed folder's pin. */
  pinName: string;
  board: FollowStatusBoard;
  clock: Clock;
  /** A fetch that receives no block for this long ends, and the folder shows why. */
  fetchStallMs: number;
  /** The runner's stop. */
  signal: AbortSignal;
}

/** A version fetched as far as held blocks; `whole()` makes sure of the rest. */
export interface FetchedVersion {
  whole(): Promise<void>;
}

/**
 * The blocks of `root` this machine lacks, from the network (only those while the held ones are whole);
 * `whole()`, under the GC hold, checks the DAG complete and fetches it in full if a held subtree has a hole.
 * A fetch that receives no block for `fetchStallMs` ends with why (fetch-stall.ts): it never gives up by itself.
 */
export async function fetchVersion(deps: VersionDeps, row: SyncFolderRow, root: CID): Promise<FetchedVersion> {
  const { domains, board, signal } = deps;
  const fetch = (stopAtHeld: boolean): Promise<unknown> =>
    withStallLimit(signal, deps.fetchStallMs, `the version ${root.toString()}`, (limited, progressed) =>
      domains.fetcher.fetchDag(root, {
        signal: limited,
        origins: row.followSources,
        stopAtHeld,
        onCommit: (tx, stored) => domains.chargeIngress(tx, row.accountId, stored.bytes),
        onProgress: (progress: FetchProgress) => {
          progressed();
          // While fetching, no file is written yet: the bytes received are the progress.
          board.setProgress(0, progress.bytes, '');
        },
      }),
    );
  board.setProgress(0, 0, '');
  await fetch(true);
  return { whole: () => makeWhole(deps, root, () => fetch(false)) };
}

async function makeWhole(deps: VersionDeps, root: CID, fetchAll: () => Promise<unknown>): Promise<void> {
  const { domains, signal } = deps;
  let census = await domains.census(root, signal);
  if (census.missing > 0) {
    // A held subtree with a hole (a crash mid-fetch, or GC before the hold): the whole walk this time.
    domains.logger.info('a followed version had holes under held blocks; fetched in full', { folder: deps.folderId, missing: census.missing });
    await fetchAll();
    census = await domains.census(root, signal);
  }
  if (census.missing > 0)
    throw new FollowCycleError(`the version ${root.toString()} is not whole here (${census.missing} blocks missing); fetched again at the next try`);
  domains.knownComplete?.(root, census.bytes);
}

/** Under the GC hold (the blocks stay until pinned) and the folder's write lock: checked whole, written, pinned. */
export async function writeFolder(deps: VersionDeps, row: SyncFolderRow, root: string, scanAll: boolean, fetched?: FetchedVersion): Promise<void> {
  const { domains, folderId } = deps;
  const { store } = domains;
  await domains.holdGc((hold) =>
    domains.writeLock.run(folderId, async () => {
      await fetched?.whole();
      const fresh = (await store.sync.getSyncFolder(folderId)) ?? row;
      const result = await applyFollowedVersion({
        folderId,
        store,
        blocks: domains.blocks,
        root,
        source: followSourceLabel({ name: row.followName, sources: row.followSources }),
        movePin: (newRoot, oldRoot) => domains.movePin(row.accountId, newRoot, oldRoot, deps.pinName, hold),
        localChanges: fresh.localChanges.map((change) => change.path),
        scanAll,
        ...(domains.trash ? { trash: domains.trash } : {}),
        clock: deps.clock,
        signal: deps.signal,
        onProgress: (progress: FollowApplyProgress) => deps.board.setWriting(progress.filesDone, progress.filesTotal, progress.currentFile),
      });
      await store.sync.setFollowLocalChanges(folderId, result.localChanges);
    }),
  );
}
