import { afterPushAnswer, type PushOutcome, type PushTiming } from './follow-policy.js';

/**
 * Where one pushing source's long-poll stands (push-loop.ts performs it), as a pure step: the wait of its
 * next ask, its failures in a row, whether it is being waited on.
 *
 * The first ask, and the first after a failure, waits a second only: a source that pushes says so in its
 * answer (X-Pinfold-Push), and until one answer has said it the folder polls every `pollMs`. With the full
 * wait, a name that does not change would keep the folder polling for that whole wait.
 */

/** The long-poll wait of a source's first ask (X-Pinfold-Wait's least): enough to learn whether it pushes. */
export const PROBE_WAIT_SECONDS = 1;

export interface PushProbe {
  /** Answers in a row that were `none` (failed, or a pushed record that brought nothing). */
  readonly failures: number;
  /** The source pushes and is being waited on. */
  readonly live: boolean;
  /** The X-Pinfold-Wait of the next ask. */
  readonly waitSeconds: number;
}

export const FIRST_PUSH_PROBE: PushProbe = { failures: 0, live: false, waitSeconds: PROBE_WAIT_SECONDS };

export interface PushProbeStep {
  probe: PushProbe;
  /** How long to wait before the next ask. */
  waitMs: number;
  /** `live` changed: the follow policy hears of it. */
  liveChanged: boolean;
}

export function afterPushProbe(probe: PushProbe, outcome: PushOutcome, push: boolean, timing: PushTiming, pushWaitSeconds: number): PushProbeStep {
  const failures = outcome === 'none' ? probe.failures + 1 : 0;
  const waitSeconds = outcome === 'none' ? PROBE_WAIT_SECONDS : pushWaitSeconds;
  const next = afterPushAnswer(outcome, push, failures, timing);
  return { probe: { failures, live: next.live, waitSeconds }, waitMs: next.waitMs, liveChanged: next.live !== probe.live };
}

/**
 * What a pushed record's answer counts as once its cycle ended: a cycle that kept nothing newer (a record
 * refused, a fetch that failed) makes it `none`, so the source is not asked again in a loop.
 */
export function pushedOutcome(heldAfter: bigint, asked: bigint): PushOutcome {
  return heldAfter <= asked ? 'none' : 'record';
}
