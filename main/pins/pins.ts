import { CID } from 'multiformats/cid';
import type { PinFetchProgress, PinRecord } from '../../shared/api-types.js';
import { unixSeconds } from '../base/clock.js';
import { requireHeld, type LockHold } from '../base/lock.js';
import { NotFoundError } from '../base/errors.js';
import { check, record } from '../accounts/usage.js';
import { requireVerifiableCid } from '../content/cid-param.js';
import type { PinRow } from '../store/repositories/pins.js';
import type { DagCensus, PinsContext } from './context.js';

export function toPinRecord(row: PinRow, fetch?: PinFetchProgress): PinRecord {
  const record: PinRecord = { name: row.name, cid: row.cid, status: row.status, size: row.size, created_at: row.createdAt };
  if (fetch !== undefined && row.status === 'pinning') record.fetch = { ...fetch };
  return record;
}

/** A pin as the API shows it: with its fetch's progress while one runs. */
export function pinRecordOf(ctx: PinsContext, row: PinRow): PinRecord {
  return toPinRecord(row, ctx.fetches?.progressOf(row.id));
}

/** Tells the event stream about a pin as it is now (call after the change committed). */
export function publishPin(ctx: PinsContext, row: PinRow): void {
  ctx.events?.pinChanged(row.accountId, pinRecordOf(ctx, row));
}

export interface AddPinOptions {
  name?: string;
  signal?: AbortSignal;
  /**
   * What the caller already knows of the DAG, so a huge DAG is not walked again: a folder operation
   * knows its new root is complete and its cumulative size.
   */
  census?: DagCensus;
  /** The request parameter that carried the CID, named in a 400 (default `cid`). */
  parameter?: string;
}

/**
 * Pin add (contract section 6): `pinned` at once when every block is here, else `pinning` until the
 * blocks arrive or the pin timeout passes. A CID whose hash Pinfold cannot verify is refused (400): its
 * block could never be stored. Limits are checked before anything is written: a new pin needs one more
 * `pinned_count`, and a complete one its bytes of `pinned_bytes`. Adding an existing pin is a no-op that
 * may rename it; a pin being removed (or failed) is taken back, `pinned` only if its whole DAG is here.
 */
export async function addPin(ctx: PinsContext, accountId: number, cid: CID, options: AddPinOptions = {}): Promise<PinRow> {
  requireVerifiableCid(cid, options.parameter ?? 'cid');
  const written = await ctx.gcLock.shared(async (hold) => writePin(ctx, hold, accountId, cid, options));
  return announcePin(ctx, written);
}

/**
 * {@link addPin} for a caller that already holds the GC lock (shared or exclusive) and must keep it
 * across more than the pin, e.g. a sync batch from its first import to its pin.
 */
export async function addPinHeld(ctx: PinsContext, hold: LockHold, accountId: number, cid: CID, options: AddPinOptions = {}): Promise<PinRow> {
  requireVerifiableCid(cid, options.parameter ?? 'cid');
  return announcePin(ctx, await writePin(ctx, hold, accountId, cid, options));
}

interface WrittenPin {
  row: PinRow;
  changed: boolean;
}

/** The pin change itself, under the GC lock (so GC cannot collect the blocks the census counted). */
async function writePin(ctx: PinsContext, hold: LockHold, accountId: number, cid: CID, options: AddPinOptions): Promise<WrittenPin> {
  requireHeld(hold, ctx.gcLock, 'adding a pin');
  const key = cid.toString();
  const name = options.name ?? '';
  const census = options.census ?? (await ctx.content.census(cid, options.signal));
  const { store, clock } = ctx.accounts;
  return store.transaction(async (tx) => {
    const now = unixSeconds(clock);
    const complete = census.missing === 0;
    const existing = await tx.pins.pinOf(accountId, key);
    if (existing) {
      const renamed = name !== '' && name !== existing.name;
      if (renamed) await tx.pins.renamePin(existing.id, name, now);
      const takenBack = existing.status === 'unpinning' || existing.status === 'failure';
      if (takenBack) {
        // Taken back only on what is held now: GC may have deleted blocks since the pin was last
        // complete, and an `unpinning` pin may never have been complete at all. Its size (and the
        // pinned_bytes it holds) moves to what the census finds, or to 0 while it waits again.
        if (complete) {
          const growth = census.bytes - existing.size;
          await check(ctx.accounts, tx, accountId, 'pinned_bytes', growth);
          await record(ctx.accounts, tx, accountId, 'pinned_bytes', growth);
          await tx.pins.updatePinState(existing.id, 'pinned', census.bytes, null, now);
        } else {
          await record(ctx.accounts, tx, accountId, 'pinned_bytes', -existing.size);
          await tx.pins.updatePinState(existing.id, 'pinning', 0, now + ctx.pinTimeoutSeconds, now);
        }
      }
      return { row: (await tx.pins.pinOf(accountId, key)) as PinRow, changed: renamed || takenBack };
    }
    await check(ctx.accounts, tx, accountId, 'pinned_count', 1);
    if (complete) await check(ctx.accounts, tx, accountId, 'pinned_bytes', census.bytes);
    await tx.pins.insertPin({
      accountId,
      cid: key,
      name,
      status: complete ? 'pinned' : 'pinning',
      size: complete ? census.bytes : 0,
      createdAt: now,
      deadline: complete ? null : now + ctx.pinTimeoutSeconds,
    });
    await record(ctx.accounts, tx, accountId, 'pinned_count', 1);
    if (complete) await record(ctx.accounts, tx, accountId, 'pinned_bytes', census.bytes);
    return { row: (await tx.pins.pinOf(accountId, key)) as PinRow, changed: true };
  });
}

/** Tells the event stream and the pending-pin watcher about a pin change that committed. */
function announcePin(ctx: PinsContext, { row, changed }: WrittenPin): PinRow {
  if (changed) publishPin(ctx, row);
  if (row.status === 'pinning') ctx.onPinning?.();
  return row;
}

/** Pin rm: the pin turns `unpinning` and still counts until the next GC cycle removes it. */
export async function removePin(ctx: PinsContext, accountId: number, cid: CID): Promise<PinRow> {
  const { store, clock } = ctx.accounts;
  const { row, changed } = await store.transaction(async (tx) => {
    const existing = await tx.pins.pinOf(accountId, cid.toString());
    if (!existing) throw new NotFoundError(`${cid.toString()} is not pinned`);
    if (existing.status !== 'unpinning') await tx.pins.updatePinState(existing.id, 'unpinning', existing.size, null, unixSeconds(clock));
    return { row: (await tx.pins.pinOf(accountId, cid.toString())) as PinRow, changed: existing.status !== 'unpinning' };
  });
  if (changed) publishPin(ctx, row);
  return row;
}

export async function requirePin(ctx: PinsContext, accountId: number, cid: CID): Promise<PinRow> {
  const row = await ctx.accounts.store.pins.pinOf(accountId, cid.toString());
  if (!row) throw new NotFoundError(`${cid.toString()} is not pinned`);
  return row;
}

export async function isPinned(ctx: PinsContext, accountId: number, cid: CID): Promise<boolean> {
  const row = await ctx.accounts.store.pins.pinOf(accountId, cid.toString());
  return row !== null && (row.status === 'pinned' || row.status === 'pinning');
}

/** True when the account's pin on `cid` is `pinned`: every block of its DAG is held. */
export async function isCompletePin(ctx: PinsContext, accountId: number, cid: CID): Promise<boolean> {
  return (await ctx.accounts.store.pins.pinOf(accountId, cid.toString()))?.status === 'pinned';
}

export async function renamePinOf(ctx: PinsContext, accountId: number, cid: CID, name: string): Promise<void> {
  const row = await requirePin(ctx, accountId, cid);
  if (row.name === name) return;
  await ctx.accounts.store.pins.renamePin(row.id, name, unixSeconds(ctx.accounts.clock));
  publishPin(ctx, { ...row, name });
}

export interface Page {
  limit: number;
  start: number;
}

/**
 * Whether another live pin of the account (not the one on `cid` itself) reaches `cid`'s block
 * (folder rule 4). It walks the account's other pinned DAGs until it meets the block, so its cost
 * grows with what the account pins; `walk` yields the multihashes a DAG reaches.
 */
export async function isReachedByOtherPin(ctx: PinsContext, accountId: number, cid: CID, walk: (root: CID) => AsyncIterable<Uint8Array>): Promise<boolean> {
  const target = Buffer.from(cid.multihash.bytes);
  for (const pin of await ctx.accounts.store.pins.livePinsOf(accountId)) {
    const root = CID.parse(pin.cid);
    if (Buffer.from(root.multihash.bytes).equals(target)) continue;
    for await (const multihash of walk(root)) if (target.equals(multihash)) return true;
  }
  return false;
}
