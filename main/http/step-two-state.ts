import type { UploadCancelOutcome } from '../../shared/api-types.js';

/**
 * Where one step 2 stands (step-two-outcomes.ts), and what follows from it, as plain functions: what its
 * commit point, its end and a cancel each decide. The outcomes registry holds the entries and acts.
 */

/** How long an outcome is kept after the address expired or its step 2 ended, whichever is later. */
export const RETAIN_SECONDS = 600;

export type StepTwoState =
  | { kind: 'claiming'; claimed: Promise<boolean>; cancelRequested: boolean }
  | { kind: 'running'; controller: AbortController }
  | { kind: 'committing'; roots: readonly string[] | null }
  | { kind: 'cancelled' }
  | { kind: 'ended'; outcome: UploadCancelOutcome };

export interface StepTwoEntry {
  state: StepTwoState;
  keepUntil: number;
  /** Resolves with the final outcome once the step 2 ended (a cancel during the commit waits for it). */
  readonly ended: Promise<UploadCancelOutcome>;
  settle(outcome: UploadCancelOutcome): void;
}

export const CANCELLED: UploadCancelOutcome = { outcome: 'cancelled', roots: [] };

export function newStepTwoEntry(state: StepTwoState, expires: number): StepTwoEntry {
  let settle: (outcome: UploadCancelOutcome) => void = () => undefined;
  const ended = new Promise<UploadCancelOutcome>((resolve) => {
    settle = resolve;
  });
  return { state, keepUntil: expires + RETAIN_SECONDS, ended, settle };
}

/** An entry decided and past its keeping time may go. */
export function mayForget(entry: StepTwoEntry, nowSeconds: number): boolean {
  return (entry.state.kind === 'ended' || entry.state.kind === 'cancelled') && entry.keepUntil < nowSeconds;
}

/** Why an address this server knows cannot start a step 2. */
export function knownAddressRefusal(state: StepTwoState): string {
  // Cancelled before it came: the cancel claimed the address and released its reservation already.
  return state.kind === 'cancelled' ? 'upload address was cancelled' : 'upload address was already used';
}

/** Why the commit point refuses (`twice`: a caller's bug), or undefined: the step 2 commits. */
export function commitPointRefusal(state: StepTwoState, gone: boolean): 'cancelled' | 'gone' | 'twice' | undefined {
  if (state.kind === 'cancelled') return 'cancelled';
  if (gone) return 'gone';
  if (state.kind !== 'running') return 'twice';
  return undefined;
}

/** The outcome of a step 2 that ended: past the commit point it is stored, even when what came after failed (the roots are then unknown). */
export function outcomeAtEnd(state: StepTwoState): UploadCancelOutcome {
  if (state.kind === 'ended') return state.outcome;
  if (state.kind === 'committing') return { outcome: 'stored', roots: [...(state.roots ?? [])] };
  return CANCELLED;
}

/**
 * What a cancel of a known step 2 (its claim settled) does: abort a running one (`abort`), wait for a
 * commit under way (`wait`), or answer what is decided.
 */
export function cancelAnswer(state: Exclude<StepTwoState, { kind: 'claiming' }>): 'abort' | 'wait' | UploadCancelOutcome {
  if (state.kind === 'running') return 'abort';
  if (state.kind === 'committing') return 'wait';
  return state.kind === 'ended' ? state.outcome : CANCELLED;
}
