import type { FastifyReply } from 'fastify';
import { unixSeconds, type Clock } from '../base/clock.js';
import { ConflictError, UnauthorizedError } from '../base/errors.js';
import type { UploadCancelOutcome } from '../../shared/api-types.js';

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
export interface StepTwoRun {
  /** Aborted when the upload is cancelled or its client went away before the commit point. */
  readonly signal: AbortSignal;
  /**
   * The commit point: throws (409) when the upload was cancelled or its client is gone; else from now on
   * the upload commits. Call it synchronously inside the transaction's work, just before its writes.
   */
  commitPoint(): void;
  /** The commit is done: the roots the step 2 answers with (a file's CID, a directory's new root, a CAR's roots). */
  stored(roots: readonly string[]): void;
  /** The commit after the commit point failed and rolled back: nothing was stored. */
  rolledBack(): void;
}

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

/** How long an outcome is kept after the address expired or its step 2 ended, whichever is later. */
export const RETAIN_SECONDS = 600;

type State =
  | { kind: 'claiming'; claimed: Promise<boolean>; cancelRequested: boolean }
  | { kind: 'running'; controller: AbortController }
  | { kind: 'committing'; roots: readonly string[] | null }
  | { kind: 'cancelled' }
  | { kind: 'ended'; outcome: UploadCancelOutcome };

interface Entry {
  state: State;
  keepUntil: number;
  /** Resolves with the final outcome once the step 2 ended (a cancel during the commit waits for it). */
  readonly ended: Promise<UploadCancelOutcome>;
  settle(outcome: UploadCancelOutcome): void;
}

const CANCELLED: UploadCancelOutcome = { outcome: 'cancelled', roots: [] };

export class UploadCancelledError extends ConflictError {
  constructor(why: 'cancelled' | 'gone') {
    super(
      why === 'cancelled'
        ? 'the upload was cancelled before it was stored; nothing of it was kept'
        : 'the client went away before the upload was stored; nothing of it was kept',
    );
  }
}

/** A step 2 whose address was cancelled while it claimed it (or before): 401, as any address that cannot be used. */
export class UploadAddressCancelledError extends UnauthorizedError {
  constructor() {
    super('upload address was cancelled');
  }
}

export function stepTwoOutcomes(clock: Clock, ended?: (nonce: string, outcome: UploadCancelOutcome) => void): StepTwoOutcomes {
  const entries = new Map<string, Entry>();
  const now = () => unixSeconds(clock);
  const sweep = (): void => {
    const at = now();
    for (const [nonce, entry] of entries) if ((entry.state.kind === 'ended' || entry.state.kind === 'cancelled') && entry.keepUntil < at) entries.delete(nonce);
  };
  const newEntry = (state: State, expires: number): Entry => {
    let settle: (outcome: UploadCancelOutcome) => void = () => undefined;
    const ended = new Promise<UploadCancelOutcome>((resolve) => {
      settle = resolve;
    });
    return { state, keepUntil: expires + RETAIN_SECONDS, ended, settle };
  };

  return {
    async begin(nonce, expires, reply, claim) {
      sweep();
      const known = entries.get(nonce);
      if (known !== undefined) {
        // Cancelled before it came: the cancel claimed the address and released its reservation already.
        if (known.state.kind === 'cancelled') throw new UnauthorizedError('upload address was cancelled');
        throw new UnauthorizedError('upload address was already used');
      }
      const claimed = claim();
      const entry = newEntry({ kind: 'claiming', claimed: claimed.catch(() => false), cancelRequested: false }, expires);
      entries.set(nonce, entry);
      let won: boolean;
      try {
        won = await claimed;
      } catch (error) {
        entries.delete(nonce);
        entry.settle(CANCELLED);
        throw error;
      }
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
      const controller = new AbortController();
      entry.state = { kind: 'running', controller };
      let gone = false;
      // The answer not yet written when the connection closes: the client will never read it.
      reply.raw.once('close', () => {
        if (reply.raw.writableFinished || entry.state.kind !== 'running') return;
        gone = true;
        controller.abort(new UploadCancelledError('gone'));
      });
      return {
        signal: controller.signal,
        commitPoint() {
          if (entry.state.kind === 'cancelled') throw new UploadCancelledError('cancelled');
          if (gone) throw new UploadCancelledError('gone');
          if (entry.state.kind !== 'running') throw new Error('a step 2 passed its commit point twice');
          entry.state = { kind: 'committing', roots: null };
        },
        stored(roots) {
          if (entry.state.kind === 'committing') entry.state = { kind: 'committing', roots };
        },
        rolledBack() {
          if (entry.state.kind === 'committing') entry.state = { kind: 'ended', outcome: CANCELLED };
        },
      };
    },

    end(nonce) {
      const entry = entries.get(nonce);
      if (entry === undefined) return;
      const { state } = entry;
      // Past the commit point it is stored, even when what came after failed (the roots are then unknown).
      const outcome: UploadCancelOutcome =
        state.kind === 'ended' ? state.outcome : state.kind === 'committing' ? { outcome: 'stored', roots: [...(state.roots ?? [])] } : CANCELLED;
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
        if (state.kind === 'running') {
          entry.state = { kind: 'cancelled' };
          state.controller.abort(new UploadCancelledError('cancelled'));
          return CANCELLED;
        }
        if (state.kind === 'committing') return entry.ended;
        return state.kind === 'ended' ? state.outcome : CANCELLED;
      }
      // Not here: claimed now, so that a step 2 that comes later is refused.
      entries.set(nonce, newEntry({ kind: 'cancelled' }, expires));
      if (await claimUnused()) return CANCELLED;
      entries.delete(nonce);
      return { outcome: 'unknown', roots: [] };
    },
  };
}
