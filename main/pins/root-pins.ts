import type { CID } from 'multiformats/cid';
import { unixSeconds } from '../base/clock.js';
import { LimitReachedError } from '../base/errors.js';
import { check, record } from '../accounts/usage.js';
import { inTransaction } from '../store/db/database.js';
import { deletePin, insertPin, pinOf, updatePinState } from '../store/db/pins-queries.js';
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
 * Synchronous: it runs inside the caller's transaction. `pinned_count` is checked as pin add does.
 */
export function writeRootPins(ctx: PinsContext, accountId: number, roots: readonly CID[]): RootPin[] {
  const { db, clock } = ctx.accounts;
  const now = unixSeconds(clock);
  const deadline = now + ctx.pinTimeoutSeconds;
  return roots.map((cid) => {
    const existing = pinOf(db, accountId, cid.toString());
    if (existing) {
      // A pin being removed, or one that failed, is taken back and counted again once its DAG is here.
      if (existing.status === 'unpinning') record(ctx.accounts, accountId, 'pinned_bytes', -existing.size);
      if (existing.status === 'unpinning' || existing.status === 'failure') updatePinState(db, existing.id, 'pinning', 0, deadline, now);
      return { cid, error: '', created: false };
    }
    try {
      check(ctx.accounts, accountId, 'pinned_count', 1);
    } catch (error) {
      if (error instanceof LimitReachedError) return { cid, error: error.message, created: false };
      throw error;
    }
    insertPin(db, { accountId, cid: cid.toString(), name: '', status: 'pinning', size: 0, createdAt: now, deadline });
    record(ctx.accounts, accountId, 'pinned_count', 1);
    return { cid, error: '', created: true };
  });
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
    const { db, clock } = ctx.accounts;
    return inTransaction(db, () => {
      const now = unixSeconds(clock);
      const row = pinOf(db, accountId, pin.cid.toString());
      if (!row || row.status !== 'pinning' || census.missing > 0) return '';
      try {
        check(ctx.accounts, accountId, 'pinned_bytes', census.bytes);
      } catch (error) {
        if (!(error instanceof LimitReachedError)) throw error;
        if (pin.created) {
          deletePin(db, row.id);
          record(ctx.accounts, accountId, 'pinned_count', -1);
        } else updatePinState(db, row.id, 'failure', 0, null, now);
        return error.message;
      }
      record(ctx.accounts, accountId, 'pinned_bytes', census.bytes);
      updatePinState(db, row.id, 'pinned', census.bytes, null, now);
      return '';
    });
  });
  // The root pin as the import left it, now that its transaction (and this one) committed: pinned, still
  // pinning (blocks missing), failed, or taken back.
  const row = pinOf(ctx.accounts.db, accountId, pin.cid.toString());
  if (row) publishPin(ctx, row);
  else ctx.events?.pinChanged(accountId, { cid: pin.cid.toString(), removed: true });
  return error;
}
