import type { FastifyReply } from 'fastify';
import { unixSeconds, type Clock } from '../base/clock.js';
import { UnauthorizedError } from '../base/errors.js';
import type { UploadCancelOutcome } from '../../shared/api-types.js';
import { UploadAddressCancelledError, UploadCancelledError } from './step-two-errors.js';
import { startStepTwoRun, type StepTwoRun } from './step-two-run.js';
import { CANCELLED, cancelAnswer, knownAddressRefusal, mayForget, newStepTwoEntry, outcomeAtEnd, RETAIN_SECONDS, type StepTwoEntry } from './step-two-state.js';

/**
 * What became of each step 2 this server ran, decided once (issue 22, item 9). A step 2 is cancelled, or it
 * commits, never both and never neither: its commit point ({@link StepTwoRun.commitPoint}, called inside
 * the transaction that makes its blocks visible and counts its ingress) is the one moment it is decided.
 *
 * - Before it, a cancel (POST /api/v0/upload/cancel with the address) or a client that went away (the
 *   connection closed before the answer) cancels it: the commit point refuses (409), the transaction rolls
 *   back, nothing of it is stored or counted.
 * - From it on, nothing cancels it: a client that goes away does not undo it, and a cancel that arrives
 *   then waits for the commit to end and answers what it stored.
 *
 * A cancel of an address whose step 2 has not arrived claims the address (single use: no step 2 can run
 * with it any more) and releases its reservation. Entries live while the address could be used and a
 * while after (see RETAIN_SECONDS), in this server's memory: a step 2 another instance ran, or one from
 * before a restart, is `unknown` here.
 */
export interface StepTwoOutcomes {
  /**
   * A step 2 claiming its address: `claim` claims it in the database (false: used before). Registered
   * before the claim, so that a cancel racing it waits for it. Throws (401) when the address was used or
   * cancelled; the caller then releases the reservation.
   */
  begin(nonce: string, expires: number, reply: FastifyReply, claim: () => Promise<boolean>): Promise<StepTwoRun>;
  /** The step 2 ended (answered or failed); what it stored, if anything, is now final. */
  end(nonce: string): void;
  /**
   * Cancels the upload of an address, or answers what it stored when it committed first. `claimUnused`
   * claims the address in the database and releases its reservation, and answers false when the address
   * had been used there already (by a step 2 that is not this server's).
   */
  cancel(nonce: string, expires: number, claimUnused: () => Promise<boolean>): Promise<UploadCancelOutcome>;
}

/**
 * Tests only (AppInit.uploadTestHooks), so that a test decides whether a cancel or the commit comes first:
 * `beforeCommit` is awaited between a step 2's last byte and its commit; `ended` hears each step 2 end
 * with its outcome (which a client that went away never reads).
 */
export interface UploadTestHooks {
  beforeCommit(nonce: string): Promise<void>;
  ended?(nonce: string, outcome: UploadCancelOutcome): void;
}

// What callers of the outcomes see, wherever it is defined.
export { RETAIN_SECONDS, UploadAddressCancelledError, UploadCancelledError };
export type { StepTwoRun };

/** A claim settled: the run starts, or the address is refused (401) and its entry ends. */
function afterClaim(entries: Map<string, StepTwoEntry>, nonce: string, entry: StepTwoEntry, reply: FastifyReply, won: boolean): StepTwoRun {
  if (!won) {
    entries.delete(nonce);
    entry.settle(CANCELLED);
    throw new UnauthorizedError('upload address was already used');
  }
  if (entry.state.kind === 'claiming' && entry.state.cancelRequested) {
    entry.state = { kind: 'cancelled' };
    entry.settle(CANCELLED);
    throw new UploadAddressCancelledError();
  }
  return startStepTwoRun(entry, reply);
}

export function stepTwoOutcomes(clock: Clock, ended?: (nonce: string, outcome: UploadCancelOutcome) => void): StepTwoOutcomes {
  const entries = new Map<string, StepTwoEntry>();
  const now = () => unixSeconds(clock);
  const sweep = (): void => {
    const at = now();
    for (const [nonce, entry] of entries) if (mayForget(entry, at)) entries.delete(nonce);
  };

  return {
    async begin(nonce, expires, reply, claim) {
      sweep();
      const known = entries.get(nonce);
      if (known !== undefined) throw new UnauthorizedError(knownAddressRefusal(known.state));
      const claimed = claim();
      const entry = newStepTwoEntry({ kind: 'claiming', claimed: claimed.catch(() => false), cancelRequested: false }, expires);
      entries.set(nonce, entry);
      let won: boolean;
      try {
        won = await claimed;
      } catch (error) {
        entries.delete(nonce);
        entry.settle(CANCELLED);
        throw error;
      }
      return afterClaim(entries, nonce, entry, reply, won);
    },

    end(nonce) {
      const entry = entries.get(nonce);
      if (entry === undefined) return;
      const outcome = outcomeAtEnd(entry.state);
      entry.state = { kind: 'ended', outcome };
      entry.keepUntil = Math.max(entry.keepUntil, now() + RETAIN_SECONDS);
      entry.settle(outcome);
      ended?.(nonce, outcome);
    },

    async cancel(nonce, expires, claimUnused) {
      sweep();
      let entry = entries.get(nonce);
      // A step 2 claiming the address right now: whether it is this server's is known once the claim is.
      while (entry?.state.kind === 'claiming') {
        entry.state.cancelRequested = true;
        await entry.state.claimed;
        entry = entries.get(nonce);
      }
      if (entry !== undefined) {
        const { state } = entry;
        const answer = cancelAnswer(state);
        if (answer === 'wait') return entry.ended;
        if (answer !== 'abort') return answer;
        entry.state = { kind: 'cancelled' };
        if (state.kind === 'running') state.controller.abort(new UploadCancelledError('cancelled'));
        return CANCELLED;
      }
      // Not here: claimed now, so that a step 2 that comes later is refused.
      entries.set(nonce, newStepTwoEntry({ kind: 'cancelled' }, expires));
      if (await claimUnused()) return CANCELLED;
      entries.delete(nonce);
      return { outcome: 'unknown', roots: [] };
    },
  };
}
