import type { NetworkFetcher } from '../../network/network-fetcher.js';
import { waitForRecord } from '../../network/record-push.js';
import type { PushOutcome, PushTiming } from './follow-policy.js';
import type { FollowInbox } from './follow-inbox.js';
import { afterPushProbe, FIRST_PUSH_PROBE, pushedOutcome } from './push-probe.js';

export interface PushLoopDeps {
  /** `online()`: false when the settings say offline; no long-poll is made then. */
  fetcher: Pick<NetworkFetcher, 'online'>;
  pushTiming: PushTiming;
  /** How long a pushing source may hold a long-poll (X-Pinfold-Wait). */
  pushWaitSeconds: number;
  /** The periodic check's interval: offline, the loop looks again as often. */
  pollMs: number;
  inbox: FollowInbox;
  /** The runner's stop: the loop ends. */
  signal: AbortSignal;
  /** Asks for a check now; settles once the cycle that checks has ended. */
  checkNow(): Promise<void>;
  /** The source started or stopped pushing. */
  liveChanged(live: boolean): void;
}

/**
 * One extra source's long-poll, in a loop while the runner runs (push-probe.ts decides the waits). A newer
 * record it pushes starts a cycle at once, with the pushed record among the candidates.
 */
export async function runPushLoop(deps: PushLoopDeps, source: string, wantName: string): Promise<void> {
  const { signal, inbox } = deps;
  let probe = FIRST_PUSH_PROBE;
  while (!signal.aborted) {
    if (!deps.fetcher.online()) {
      // Offline: no request leaves; looked at again as often as the periodic check.
      await delay(Math.min(deps.pushTiming.probeMs, deps.pollMs), signal);
      continue;
    }
    const asked = inbox.held < 0n ? 0n : inbox.held;
    const answer = await waitForRecord(source, wantName, asked, probe.waitSeconds, signal).catch((error: unknown) => {
      if (signal.aborted) return undefined;
      throw error;
    });
    if (answer === undefined) return;
    let outcome: PushOutcome = answer.kind;
    if (answer.kind === 'record' && answer.push) {
      inbox.push(answer.bytes);
      await deps.checkNow();
      outcome = pushedOutcome(inbox.held, asked);
    }
    const step = afterPushProbe(probe, outcome, answer.push, deps.pushTiming, deps.pushWaitSeconds);
    probe = step.probe;
    if (step.liveChanged) deps.liveChanged(probe.live);
    if (step.waitMs > 0) await delay(step.waitMs, signal);
  }
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(handle);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const handle = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
