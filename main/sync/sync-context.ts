import type { SyncFolderView } from '../../shared/api-types.js';
import type { Clock } from '../base/clock.js';
import { ConflictError, NotFoundError } from '../base/errors.js';
import type { ReadBlockstore } from '../content/read/index.js';
import { conflictOf } from '../names/seen-records.js';
import type { Store } from '../store/repositories/index.js';
import type { SyncFolderRow } from '../store/repositories/sync.js';
import { PENDING_IPNS_NAME } from './folder-publish.js';
import type { FolderRunners, FollowSetup } from './folder-runners.js';
import { conflictView, folderView, NO_NAME_FACTS, type NameFacts } from './folder-view.js';
import type { HistoryBytesWorker } from './history-bytes.js';
import type { SyncDomains } from './runner.js';

/**
 * What every call of the sync service works with (sync-service.ts builds it once), and the few steps they
 * all take: find the caller's folder, refuse changes once closing, tell the event stream, show a folder.
 */
export interface SyncContext {
  domains: SyncDomains;
  store: Store;
  clock: Clock;
  /** Where versions are read for a diff, a tree or a restore. */
  blocks: ReadBlockstore;
  runners: FolderRunners;
  historyBytes: HistoryBytesWorker;
  /** Absent: following is refused (409). */
  follow: FollowSetup | undefined;
  /** Set once by close: every change is refused from then on. */
  closing: { closed: boolean };
}

export function checkOpen(ctx: SyncContext): void {
  if (ctx.closing.closed) throw new ConflictError('the service is shutting down');
}

/** The account's folder `id`; 404 for an unknown id or another account's folder. */
export async function ownedFolder(ctx: SyncContext, accountId: number, id: string): Promise<SyncFolderRow> {
  const row = await ctx.store.sync.getSyncFolder(id);
  if (!row || row.accountId !== accountId) throw new NotFoundError(`id: sync folder ${id} not found`);
  return row;
}

export function folderChanged(ctx: SyncContext, accountId: number, id: string, removed?: boolean): void {
  ctx.domains.events?.syncChanged(accountId, id, removed);
}

export async function historyBytesOf(ctx: SyncContext, id: string): Promise<number> {
  return (await ctx.store.sync.folderHistoryBytes([id])).get(id) ?? 0;
}

/** Public or not (`name/public`: the mark lives on the name, not the folder), and a newer record seen elsewhere (contract section 11). */
export async function nameFactsOf(ctx: SyncContext, row: SyncFolderRow): Promise<NameFacts> {
  const name = row.ipnsName === '' || row.ipnsName === PENDING_IPNS_NAME ? null : await ctx.store.names.nameByName(row.ipnsName);
  if (name === null) return NO_NAME_FACTS;
  const seen = await conflictOf(ctx.store, name);
  return { public: name.public, conflict: seen === null ? null : conflictView(seen) };
}

/** The folder as the list shows it; its runner's status is read last, the freshest. */
export async function showFolder(ctx: SyncContext, row: SyncFolderRow, historyBytes?: number): Promise<SyncFolderView> {
  const bytes = historyBytes ?? (await historyBytesOf(ctx, row.id));
  const name = await nameFactsOf(ctx, row);
  return folderView(row, ctx.runners.get(row.id)?.status(), bytes, name);
}
