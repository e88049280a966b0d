import { unixSeconds } from '../base/clock.js';
import type { Transaction } from '../store/repositories/index.js';
import type { AccountsContext } from './context.js';
import { check, record } from './usage.js';

/**
 * Ingress held for an upload between its two steps (contract section 4). Step 1 reserves the declared
 * size, so that two addresses asked for at once cannot together pass the plan; step 2 settles the
 * reservation (the bytes received become ingress) or releases it when it fails; an address never used
 * stops counting when it expires. Stats show received bytes only: a reservation counts in the limit check
 * (usage.ts), not in `ingress`.
 */

export interface IngressHold {
  accountId: number;
  /** The key that asked for the address: deleting it releases the hold. */
  accessKey: string;
  /** The address's nonce. */
  nonce: string;
  bytes: number;
  expiresAt: number;
}

/** Step 1: refuses (403 `ingress`) or holds the bytes until step 2, the address's expiry or its key's deletion. */
export async function reserveIngress(ctx: AccountsContext, hold: IngressHold): Promise<void> {
  if (hold.bytes <= 0) return;
  await ctx.store.transaction(async (tx) => {
    await tx.uploads.sweepUploadReservations(unixSeconds(ctx.clock));
    await check(ctx, tx, hold.accountId, 'ingress', hold.bytes);
    await tx.uploads.insertUploadReservation(hold);
  });
}

/** Step 2 succeeded: `bytes` count as ingress and the reservation ends, together, on the caller's transaction. */
export async function settleIngress(ctx: AccountsContext, tx: Transaction, accountId: number, nonce: string, bytes: number): Promise<void> {
  await tx.uploads.deleteUploadReservation(nonce);
  await record(ctx, tx, accountId, 'ingress', bytes);
}

/** Step 2 failed: the reservation ends and nothing counts. A no-op once settled. */
export async function releaseIngress(ctx: AccountsContext, nonce: string): Promise<void> {
  await ctx.store.uploads.deleteUploadReservation(nonce);
}
