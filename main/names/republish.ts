import { CID } from 'multiformats/cid';
import type { Logger } from '../base/logger.js';
import { announceNameChange, type NamesContext } from './context.js';
import { openNameKey } from './keys.js';
import { signAndCheck, validUntilSeconds } from './manage-names.js';

const PAGE = 100;
/** Kubo retries a failed republish after five minutes. */
const FAILURE_RETRY_MS = 5 * 60 * 1000;

export interface RepublishPass {
  republished: number;
  failed: number;
  /** When the next record falls within the margin (ms since the epoch), or null when no name is held. */
  nextDueMs: number | null;
}

/**
 * Re-signs every owned record (created, published or imported: the service holds each key) whose
 * validity ends within the republish margin, as Kubo's republisher does: the same value, the same
 * sequence, and a fresh validity (a reader prefers, at equal sequence, the record that ends later). The
 * sequence is left alone so that the owner's next publish is still `seq + 1`. A name that fails (its key
 * cannot be opened) is logged and the others go on.
 */
export async function republishDueNames(ctx: NamesContext, logger: Logger, signal?: AbortSignal): Promise<RepublishPass> {
  let republished = 0;
  let failed = 0;
  const skipped = new Set<number>();
  for (;;) {
    signal?.throwIfAborted();
    const dueBy = Math.floor((ctx.clock.nowMs() + ctx.republishMarginMs) / 1000);
    const due = (await ctx.store.names.namesValidUntil(dueBy, PAGE + skipped.size)).filter((row) => !skipped.has(row.id));
    if (due.length === 0) break;
    for (const row of due.slice(0, PAGE)) {
      signal?.throwIfAborted();
      try {
        if (await republishName(ctx, row.name, dueBy)) {
          republished++;
          continue;
        }
      } catch (error) {
        failed++;
        logger.error('republishing an IPNS record failed', { name: row.name, error });
      }
      // Still due (failing, or changed meanwhile): this pass is done with it all the same.
      skipped.add(row.id);
    }
  }
  const earliest = await ctx.store.names.earliestValidUntil();
  return { republished, failed, nextDueMs: earliest === null ? null : earliest * 1000 - ctx.republishMarginMs };
}

/** Republishes one name under its lock, unless a publish or rm got there first; true when a record was stored. */
async function republishName(ctx: NamesContext, name: string, dueBy: number): Promise<boolean> {
  return ctx.nameLock.run(name, async () => {
    const row = await ctx.store.names.nameByName(name);
    if (row === null || row.validUntil > dueBy) return false;
    const key = openNameKey(ctx.sealedBox, row.name, row.keySealed);
    const record = await signAndCheck(ctx, key, row.name, CID.parse(row.value), row.seq, ctx.clock.nowMs());
    // One guarded statement: it commits on its own.
    const stored = await ctx.store.names.updateNameValidity({
      id: row.id,
      expectedSeq: row.seq,
      record: record.bytes,
      validUntil: validUntilSeconds(record),
    });
    if (stored) {
      ctx.resolver.remember(record);
      announceNameChange(ctx, row.name);
      // The fresh validity reaches the network too, or readers there would see the old record expire.
      if (row.public) ctx.network?.recordChanged(row.name);
    }
    return stored;
  });
}

export interface Republisher {
  /** Resolves once the pass running now (if any) is over. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Runs {@link republishDueNames} at start (records that came close to their end while no server ran) and
 * then whenever the next record falls due. A name created later is due no sooner than a lifetime minus
 * the margin from now, so the timer never waits longer than that.
 */
export function startRepublisher(ctx: NamesContext, logger: Logger): Republisher {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | null = null;

  const schedule = (nextDueMs: number | null): void => {
    if (controller.signal.aborted) return;
    const now = ctx.clock.nowMs();
    const latest = now + ctx.recordLifetimeMs - ctx.republishMarginMs;
    const at = nextDueMs === null ? latest : Math.min(nextDueMs, latest);
    timer = setTimeout(run, Math.min(Math.max(0, at - now), 2 ** 31 - 1));
    timer.unref();
  };

  let running: Promise<void> = Promise.resolve();
  function run(): void {
    timer = null;
    running = republishDueNames(ctx, logger, controller.signal).then(
      (pass) => {
        if (pass.republished > 0 || pass.failed > 0) logger.info('IPNS records republished', { republished: pass.republished, failed: pass.failed });
        // A failing name stays due; it is tried again after a while rather than in a tight loop.
        schedule(pass.failed > 0 ? Math.max(pass.nextDueMs ?? 0, ctx.clock.nowMs() + FAILURE_RETRY_MS) : pass.nextDueMs);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        logger.error('republishing IPNS records failed', { error });
        schedule(ctx.clock.nowMs() + FAILURE_RETRY_MS);
      },
    );
  }

  run();
  return {
    idle: () => running,
    async close() {
      controller.abort();
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
