import { randomUUID } from 'node:crypto';
import type { SyncAddResult } from '../../shared/api-types.js';
import { unixSeconds } from '../base/clock.js';
import { BadInputError, ConflictError, NotFoundError } from '../base/errors.js';
import { UniqueViolation } from '../store/repositories/index.js';
import type { SyncFolderRow } from '../store/repositories/sync.js';
import { checkApartFromOthers, parseFolderPath } from './folder-path.js';
import { PENDING_IPNS_NAME } from './folder-publish.js';
import type { FolderRunner } from './runner.js';
import { formatRetention, type RetentionPolicy } from './retention.js';
import { checkFolderRoot, detectCaseInsensitive } from './scanner.js';
import { checkOpen, folderChanged, type SyncContext } from './sync-context.js';

/** A sync folder added (contract section 9): its checks against the disk and the other folders, its row, its first sync. */

/** A sync/add as the HTTP layer read it (http/input/sync-input.ts): shapes checked, nothing looked up yet. */
export interface SyncAddInput {
  /** The text of an absolute path; that it is an existing folder apart from the others is checked here. */
  path: string;
  /** false: the folder publishes no IPNS name. Default true. */
  ipns?: boolean;
  /**
   * One of the account's IPNS names (canonical) to publish the folder to (say, a key imported on two machines),
   * instead of a new one; never with `ipns: false`, nor a name another sync folder publishes.
   */
  ipnsName?: string;
  /** The folder's own ignore patterns (checked as patterns); default none. */
  ignore?: readonly string[];
  /** The history kept; absent, the default. */
  keep?: RetentionPolicy;
}

export interface SyncAddOptions {
  /** false: answer once the folder is stored and its first scan started, not once it is pinned. Default true. */
  wait?: boolean;
}

/** The given name must be one of the account's, and no other sync folder's. */
async function checkGivenName(ctx: SyncContext, accountId: number, given: string): Promise<void> {
  const name = await ctx.store.names.nameByName(given);
  if (name === null || name.accountId !== accountId) throw new NotFoundError(`ipns_name: name ${given} not found`);
  for (const other of await ctx.store.sync.listSyncFolders()) {
    if (other.ipnsName === given) throw new ConflictError(`ipns_name: ${given} is published by the sync folder ${other.path} (id ${other.id})`);
  }
}

/** The folder's canonical path, apart from every other folder, and what its row needs of the disk. */
async function checkNewFolder(ctx: SyncContext, text: string): Promise<{ path: string; deviceId: string; caseInsensitive: boolean }> {
  const folderPath = await parseFolderPath(text);
  checkApartFromOthers(folderPath, await ctx.store.sync.listSyncFolders());
  const root = await checkFolderRoot(folderPath, '');
  if (!root.ok) throw new BadInputError(`path: ${root.reason}`);
  return { path: folderPath, deviceId: root.deviceId, caseInsensitive: await detectCaseInsensitive(folderPath) };
}

/** The row, its device and its retention land together (they were three writes with nothing between). */
async function insertFolder(
  ctx: SyncContext,
  accountId: number,
  input: SyncAddInput,
  folder: Awaited<ReturnType<typeof checkNewFolder>>,
): Promise<SyncFolderRow> {
  const id = randomUUID();
  const ipnsName = input.ipnsName ?? ((input.ipns ?? true) ? PENDING_IPNS_NAME : '');
  const keep = input.keep === undefined ? null : formatRetention(input.keep);
  try {
    return await ctx.store.transaction(async (tx) => {
      const row = await tx.sync.insertSyncFolder({
        id,
        accountId,
        path: folder.path,
        ipnsName,
        caseInsensitive: folder.caseInsensitive,
        ignorePatterns: [...(input.ignore ?? [])],
        createdAt: unixSeconds(ctx.clock),
      });
      await tx.sync.setSyncFolderDevice(id, folder.deviceId);
      if (keep !== null) await tx.sync.setSyncRetention(id, keep);
      return row;
    });
  } catch (error) {
    if (error instanceof UniqueViolation) throw new ConflictError(`path: ${folder.path} is already synced`);
    throw error;
  }
}

/**
 * Waits for the first scan to be pinned; when it fails, the add is undone (unless another call paused or
 * removed the folder meanwhile: that call decided its fate).
 */
async function awaitFirstSync(ctx: SyncContext, added: SyncFolderRow, runner: FolderRunner): Promise<SyncAddResult> {
  const { id, accountId, path: folderPath } = added;
  try {
    await runner.firstSync;
  } catch (error) {
    if (ctx.runners.get(id) !== runner) throw new ConflictError(`path: sync of ${folderPath} was paused or removed before its first scan was pinned`);
    await ctx.runners.stop(id);
    await ctx.store.sync.deleteSyncFolder(id);
    folderChanged(ctx, accountId, id, true);
    throw error;
  }
  const row = await ctx.store.sync.getSyncFolder(id);
  if (!row) throw new ConflictError(`path: sync of ${folderPath} was removed before its first scan was pinned`);
  return { id, path: row.path, root: row.rootCid, ipns_name: row.ipnsName === PENDING_IPNS_NAME ? '' : row.ipnsName };
}

export async function addFolder(ctx: SyncContext, accountId: number, input: SyncAddInput, options: SyncAddOptions = {}): Promise<SyncAddResult> {
  checkOpen(ctx);
  if (input.ipnsName !== undefined) await checkGivenName(ctx, accountId, input.ipnsName);
  const added = await insertFolder(ctx, accountId, input, await checkNewFolder(ctx, input.path));
  folderChanged(ctx, accountId, added.id);
  const runner = ctx.runners.start(added);
  if (!runner) throw new Error('a sync folder has a runner');
  // The window follows the first scan through the event stream; a failure then leaves the folder in
  // error, retried, rather than undoing an add whose id the caller already has.
  if (options.wait === false) return { id: added.id, path: added.path, root: '', ipns_name: '', state: runner.status().state };
  return awaitFirstSync(ctx, added, runner);
}
