import type { FastifyReply } from 'fastify';
import { UploadCancelledError } from './step-two-errors.js';
import { CANCELLED, commitPointRefusal, type StepTwoEntry } from './step-two-state.js';

/** One step 2 under way, as its route sees it (step-two-outcomes.ts decides what becomes of it). */
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

/**
 * A step 2 that won its claim, now running: its abort signal, the client's going away before the answer,
 * and the commit point that decides it.
 */
export function startStepTwoRun(entry: StepTwoEntry, reply: FastifyReply): StepTwoRun {
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
      const refusal = commitPointRefusal(entry.state, gone);
      if (refusal === 'twice') throw new Error('a step 2 passed its commit point twice');
      if (refusal !== undefined) throw new UploadCancelledError(refusal);
      entry.state = { kind: 'committing', roots: null };
    },
    stored(roots) {
      if (entry.state.kind === 'committing') entry.state = { kind: 'committing', roots };
    },
    rolledBack() {
      if (entry.state.kind === 'committing') entry.state = { kind: 'ended', outcome: CANCELLED };
    },
  };
}
