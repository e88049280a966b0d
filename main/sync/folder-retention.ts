import { unixSeconds } from '../base/clock.js';
import { applyRetention } from './history.js';
import { formatRetention, type RetentionPolicy } from './retention.js';
import { checkOpen, folderChanged, ownedFolder, type SyncContext } from './sync-context.js';

/**
 * The history each folder keeps: its policy set (and applied at once), and every folder's applied again
 * periodically. Releasing a version lets the next GC free what only it held.
 */

/** How often every folder's retention is applied by default (a new version is kept a day anyway). */
export const RETENTION_SWEEP_MS = 15 * 60 * 1000;

/** Sets the folder's retention policy and applies it at once; answers the policy as text. */
export async function setFolderRetention(ctx: SyncContext, accountId: number, id: string, keep: RetentionPolicy): Promise<string> {
  checkOpen(ctx);
  const row = await ownedFolder(ctx, accountId, id);
  const text = formatRetention(keep);
  await ctx.store.sync.setSyncRetention(row.id, text);
  await applyRetention(ctx.store, { id: row.id, retention: text }, unixSeconds(ctx.clock));
  folderChanged(ctx, accountId, row.id);
  ctx.historyBytes.request(accountId, row.id);
  return text;
}

/** Applies every folder's policy now; a folder that fails is logged and the others go on. */
export async function sweepRetention(ctx: SyncContext): Promise<void> {
  for (const row of await ctx.store.sync.listSyncFolders()) {
    try {
      if ((await applyRetention(ctx.store, row, unixSeconds(ctx.clock))) > 0) ctx.historyBytes.request(row.accountId, row.id);
    } catch (error) {
      ctx.domains.logger.error('sync retention failed', { folder: row.id, error });
    }
  }
}

/** The periodic sweep: armed once (by the service's start), stopped by its close. */
export class RetentionSweep {
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly ctx: SyncContext,
    private readonly intervalMs: number,
  ) {}

  /** Sweeps now, then every interval (a second start keeps the one timer). */
  async start(): Promise<void> {
    await sweepRetention(this.ctx);
    this.timer ??= setInterval(() => {
      sweepRetention(this.ctx).catch((error: unknown) => this.ctx.domains.logger.error('sync retention failed', { error }));
    }, this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
  }
}
