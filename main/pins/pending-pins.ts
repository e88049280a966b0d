import { unixSeconds } from '../base/clock.js';
import type { Logger } from '../base/logger.js';
import { LimitReachedError } from '../base/errors.js';
import { check, record } from '../accounts/usage.js';
import { CID } from 'multiformats/cid';
import type { PinsContext } from './context.js';
import { publishPin } from './pins.js';

/**
 * Moves every `pinning` pin on: `pinned` once all its blocks are here (its bytes checked against the
 * plan first: over the limit it fails instead), `failure` once its deadline has passed.
 * Returns the earliest deadline still pending, if any.
 */
export async function settlePendingPins(ctx: PinsContext, signal?: AbortSignal): Promise<number | null> {
  const { store, clock } = ctx.accounts;
  let nextDeadline: number | null = null;
  for (const pin of await store.pins.pinsWithStatus('pinning')) {
    signal?.throwIfAborted();
    const census = await ctx.content.census(CID.parse(pin.cid), signal);
    const settled = await store.transaction(async (tx) => {
      const now = unixSeconds(clock);
      const current = await tx.pins.pinOf(pin.accountId, pin.cid);
      if (!current || current.status !== 'pinning') return null;
      if (census.missing === 0) {
        try {
          await check(ctx.accounts, tx, pin.accountId, 'pinned_bytes', census.bytes);
        } catch (error) {
          if (!(error instanceof LimitReachedError)) throw error;
          await tx.pins.updatePinState(current.id, 'failure', 0, null, now);
          return tx.pins.pinOf(pin.accountId, pin.cid);
        }
        await record(ctx.accounts, tx, pin.accountId, 'pinned_bytes', census.bytes);
        await tx.pins.updatePinState(current.id, 'pinned', census.bytes, null, now);
        return tx.pins.pinOf(pin.accountId, pin.cid);
      } else if (current.deadline !== null && current.deadline <= now) {
        await tx.pins.updatePinState(current.id, 'failure', 0, null, now);
        return tx.pins.pinOf(pin.accountId, pin.cid);
      } else if (current.deadline !== null) {
        nextDeadline = nextDeadline === null ? current.deadline : Math.min(nextDeadline, current.deadline);
      }
      return null;
    });
    if (settled) publishPin(ctx, settled);
  }
  return nextDeadline;
}

export interface PendingPinsRunner {
  /** Blocks arrived (an upload or CAR import committed): look at the pending pins again soon. */
  nudge(): void;
  /** Resolves once every nudge so far has been handled. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** Runs {@link settlePendingPins} one pass at a time, after nudges and at the nearest deadline. */
export function startPendingPins(ctx: PinsContext, logger: Logger): PendingPinsRunner {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let again = false;
  let busy = false;

  const schedule = (deadline: number | null): void => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (deadline === null || controller.signal.aborted) return;
    const delayMs = Math.max(0, (deadline - unixSeconds(ctx.accounts.clock)) * 1000 + 50);
    timer = setTimeout(() => runner.nudge(), Math.min(delayMs, 2 ** 31 - 1));
    timer.unref();
  };

  const pass = async (): Promise<void> => {
    busy = true;
    try {
      do {
        again = false;
        schedule(await settlePendingPins(ctx, controller.signal));
      } while (again && !controller.signal.aborted);
    } catch (error) {
      if (!controller.signal.aborted) logger.error('settling pending pins failed', { error });
    } finally {
      busy = false;
    }
  };

  const runner: PendingPinsRunner = {
    nudge() {
      if (controller.signal.aborted) return;
      if (busy) {
        again = true;
        return;
      }
      running = pass();
    },
    idle: () => running,
    async close() {
      controller.abort();
      if (timer) clearTimeout(timer);
      await running;
    },
  };
  runner.nudge();
  return runner;
}
