import type { CID } from 'multiformats/cid';
import { unixSeconds } from '../base/clock.js';
import { BadInputError, ConflictError, LockedError, NotFoundError } from '../base/errors.js';
import { prepareDirectoryEdit, validateEntryName, type DirectoryStats } from '../content/directory/index.js';
import { requireVerifiableCid } from '../content/cid-param.js';
import type { FoldersContext } from './context.js';
import type { FolderPinChanges } from './folder-pins.js';
import { folderKey } from './folder-key.js';

/** Hosted clients batch 50; the service accepts up to this many adds in one call. */
export const MAX_ADDS_PER_OPERATION = 10_000;

export interface FolderOperation {
  /** The old root: imported by the account or made by one of its operations. */
  root: CID;
  add: ReadonlyArray<readonly [name: string, cid: CID]>;
  remove: readonly string[];
  pinNew: boolean;
  unpinOld: boolean;
}

export interface FolderOperationResult {
  cid: CID;
  stats: DirectoryStats;
}

/**
 * Folder operation (POST /api/v0/folder/operation). Every rule is checked before anything changes:
 *
 * - 400 `unpin_old` without `pin_new`; more than 10,000 adds; a bad name (empty, `.`, `..`, `/`, NUL,
 *   not UTF-8); a name both added and removed, or given twice; a CID whose hash Pinfold cannot verify.
 * - 404 `cid` neither imported by the account nor made by one of its operations; an added CID not pinned
 *   by the account; `unpin_old` when the old root is not pinned by it; a removed name that does not exist.
 * - 423 `cid` is still being imported.
 * - 409 `pin_new` when the new root is already pinned; `unpin_old` when another of the account's pins
 *   still reaches the old root.
 *
 * - 403 (from the pins domain) when `pin_new` would pass a plan limit: checked before any block is
 *   written when the pins adapter offers `checkPinChanges`.
 *
 * Then the new blocks are written, the pins moved (through {@link FoldersContext.pins}), and the new
 * root recorded as operable by the account without an import.
 */
export async function applyFolderOperation(
  ctx: FoldersContext,
  accountId: number,
  operation: FolderOperation,
  options: { signal?: AbortSignal } = {},
): Promise<FolderOperationResult> {
  checkOperationShape(operation);
  const key = folderKey(operation.root);
  const row = await ctx.store.folders.folderRootOf(key);
  if (row === null || !(await ctx.store.folders.isFolderMember(accountId, key))) {
    throw new NotFoundError(`cid: ${operation.root.toString()} has not been imported to the folder`);
  }
  if (row.state === 'importing' || row.stats === null) {
    throw new LockedError(`cid: ${operation.root.toString()} is locked: its folder import is still running`);
  }
  for (const [i, [name, cid]] of operation.add.entries()) {
    if (!(await ctx.pins.isPinned(accountId, cid))) {
      throw new NotFoundError(`add[${i}]: cid ${cid.toString()} of "${name}" is not pinned by this account`);
    }
  }
  if (operation.unpinOld && !(await ctx.pins.isPinned(accountId, operation.root))) {
    throw new NotFoundError(`unpin_old: cid ${operation.root.toString()} is not pinned by this account`);
  }

  const rootStats = row.stats;
  const prepared = await prepareDirectoryEdit(
    ctx.blockstore,
    operation.root,
    { add: operation.add, remove: operation.remove },
    { ...ctx.layout(), signal: options.signal, shardCache: ctx.shardCache, statsOf: (cid) => (folderKey(cid) === key ? rootStats : undefined) },
  );
  const { cid, stats } = prepared.result;
  if (operation.pinNew && (await ctx.pins.isPinned(accountId, cid))) {
    throw new ConflictError(`pin_new: the new root ${cid.toString()} is already pinned`);
  }
  if (operation.unpinOld && (await ctx.pins.isUsedByOtherPin(accountId, operation.root))) {
    throw new ConflictError(`unpin_old: the old root ${operation.root.toString()} is still used by another pinned DAG`);
  }

  const pinChanges: FolderPinChanges = {
    ...(operation.pinNew ? { pin: cid, pinBytes: prepared.result.size, pinParts: [operation.root, ...operation.add.map(([, added]) => added)] } : {}),
    ...(operation.unpinOld ? { unpin: operation.root } : {}),
  };
  const movesPins = operation.pinNew || operation.unpinOld;
  if (movesPins) await ctx.pins.checkPinChanges?.(accountId, pinChanges);
  await prepared.commit();
  if (movesPins) await ctx.pins.applyPinChanges(accountId, pinChanges);
  const newKey = folderKey(cid);
  const now = unixSeconds(ctx.clock);
  await ctx.store.transaction(async (tx) => {
    await tx.folders.upsertReadyFolderRoot(newKey, stats, now);
    await tx.folders.insertFolderMember(accountId, newKey, 'operation', now);
  });
  return { cid, stats };
}

/** The rules that need no I/O: checked first, so a malformed call is 400 whatever else is wrong. */
function checkOperationShape(operation: FolderOperation): void {
  if (operation.unpinOld && !operation.pinNew) throw new BadInputError('unpin_old: requires pin_new to be true');
  if (operation.add.length > MAX_ADDS_PER_OPERATION) {
    throw new BadInputError(`add: at most ${MAX_ADDS_PER_OPERATION} entries a call, got ${operation.add.length}`);
  }
  const seen = new Map<string, string>();
  const claim = (name: string, where: string) => {
    const earlier = seen.get(name);
    if (earlier !== undefined) throw new BadInputError(`${where}: "${name}" is also given in ${earlier}`);
    seen.set(name, where);
  };
  requireVerifiableCid(operation.root, 'cid');
  operation.add.forEach(([name, cid], i) => {
    validateEntryName(name, `add[${i}] name`);
    claim(name, `add[${i}]`);
    // A DAG holding a block Pinfold cannot verify could never be pinned whole (contract section 6).
    requireVerifiableCid(cid, `add[${i}] cid`);
  });
  operation.remove.forEach((name, i) => {
    validateEntryName(name, `remove[${i}]`);
    claim(name, `remove[${i}]`);
  });
}
