import type { CID } from 'multiformats/cid';
import { unixSeconds } from '../base/clock.js';
import { LimitReachedError } from '../base/errors.js';
import { check, record } from '../accounts/usage.js';
import type { Transaction } from '../store/repositories/index.js';
import type { PinsContext } from './context.js';
import { publishPin } from './pins.js';

/** A root pin written with a CAR import's blocks. */
export interface RootPin {
  cid: CID;
  /** Kubo's PinErrorMsg: '' unless the pin was refused. */
  error: string;
  /** This import created the pin row (so a refusal when it completes takes it back). */
  created: boolean;
}

/**
 * The root pins of a CAR import, written inside the transaction that makes its blocks visible, so that
 * blocks, ingress and root pins exist together or not at all (a crash between them left some roots pinned
 * and the retry counted its ingress twice). The DAG census needs readable blocks, which they are only once
 * that transaction commits, so a pin starts `pinning` here and {@link completeRootPin} finishes it just
 * after; were the process killed in between, pending pins finish it on the next start.
 * It runs on the caller's transaction, `tx`. `pinned_count` is checked as pin add does.
 */
export async function writeRootPins(ctx: PinsContext, tx: Transaction, accountId: number, roots: readonly CID[]): Promise<RootPin[]> {
  const now = unixSeconds(ctx.accounts.clock);
  const deadline = now + ctx.pinTimeoutSeconds;
  const written: RootPin[] = [];
  for (const cid of roots) written.push(await writeRootPin(ctx, tx, accountId, cid, { now, deadline }));
  return written;
}

async function writeRootPin(ctx: PinsContext, tx: Transaction, accountId: number, cid: CID, at: { now: number; deadline: number }): Promise<RootPin> {
  const existing = await tx.pins.pinOf(accountId, cid.toString());
  if (existing) {
    // A pin being removed, or one that failed, is taken back and counted again once its DAG is here.
    if (existing.status === 'unpinning') await record(ctx.accounts, tx, accountId, 'pinned_bytes', -existing.size);
    if (existing.status === 'unpinning' || existing.status === 'failure') await tx.pins.updatePinState(existing.id, 'pinning', 0, at.deadline, at.now);
    return { cid, error: '', created: false };
  }
  try {
    await check(ctx.accounts, tx, accountId, 'pinned_count', 1);
  } catch (error) {
    if (error instanceof LimitReachedError) return { cid, error: error.message, created: false };
    throw error;
  }
  await tx.pins.insertPin({ accountId, cid: cid.toString(), name: '', status: 'pinning', size: 0, createdAt: at.now, deadline: at.deadline });
  await record(ctx.accounts, tx, accountId, 'pinned_count', 1);
  return { cid, error: '', created: true };
}

/**
 * Finishes a pin {@link writeRootPins} left `pinning`, now that the blocks are visible: `pinned` with its
 * DAG's size when the whole DAG is here and fits the plan's `pinned_bytes`. Over the limit, a pin this
 * import created is taken back (as pin add refuses it) and an older one turns `failure`; the error is
 * returned. A DAG still missing blocks stays `pinning`, as after pin add.
 */
export async function completeRootPin(ctx: PinsContext, accountId: number, pin: RootPin, signal?: AbortSignal): Promise<string> {
  if (pin.error !== '') return pin.error;
  const error = await ctx.gcLock.shared(async () => {
    const census = await ctx.content.census(pin.cid, signal);
    const { store, clock } = ctx.accounts;
    return store.transaction(async (tx) => {
      const now = unixSeconds(clock);
      const row = await tx.pins.pinOf(accountId, pin.cid.toString());
      if (!row || row.status !== 'pinning' || census.missing > 0) return '';
      try {
        await check(ctx.accounts, tx, accountId, 'pinned_bytes', census.bytes);
      } catch (error) {
        if (!(error instanceof LimitReachedError)) throw error;
        if (pin.created) {
          await tx.pins.deletePin(row.id);
          await record(ctx.accounts, tx, accountId, 'pinned_count', -1);
        } else await tx.pins.updatePinState(row.id, 'failure', 0, null, now);
        return error.message;
      }
      await record(ctx.accounts, tx, accountId, 'pinned_bytes', census.bytes);
      await tx.pins.updatePinState(row.id, 'pinned', census.bytes, null, now);
      return '';
    });
  });
  // The root pin as the import left it, now that its transaction (and this one) committed: pinned, still
  // pinning (blocks missing), failed, or taken back.
  const row = await ctx.accounts.store.pins.pinOf(accountId, pin.cid.toString());
  if (row) publishPin(ctx, row);
  else ctx.events?.pinChanged(accountId, { cid: pin.cid.toString(), removed: true });
  return error;
}
