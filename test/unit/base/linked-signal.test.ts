import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { DeadlineError, linkedSignal } from '../../../main/base/linked-signal.js';

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

/** Resolves with how the wait ended: 'aborted' when its signal fired, 'stuck' when `ms` passed first. */
async function waitsEnd(start: () => Promise<unknown>, ms: number): Promise<'aborted' | 'stuck'> {
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<'stuck'>((resolve) => {
    timer = setTimeout(() => resolve('stuck'), ms);
  });
  const ended = start().then(() => 'aborted' as const);
  // Collected now, if nothing holds the wait: as a busy service's heap would, mid-wait.
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
  }
  const outcome = await Promise.race([ended, stuck]);
  clearTimeout(timer);
  return outcome;
}

/** A wait that only its own signal's listener holds, as record-wait.ts and record-push.ts wait. */
async function listenOnly(signal: AbortSignal): Promise<void> {
  await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
}

describe('linkedSignal', () => {
  it('ends a wait nothing else references at its deadline, through garbage collections', async () => {
    const outer = new AbortController();
    expect(await waitsEnd(() => listenOnly(linkedSignal([outer.signal], 100).signal), 3_000)).toBe('aborted');
  });

  it('(why it exists) AbortSignal.any with AbortSignal.timeout lets such a wait be collected on this Node', async () => {
    const outer = new AbortController();
    const outcome = await waitsEnd(() => listenOnly(AbortSignal.any([outer.signal, AbortSignal.timeout(100)])), 1_500);
    // Node 20 holds the composite weakly. Should a later Node keep it, this test says the helper may go.
    expect(outcome).toBe('stuck');
  });

  it('aborts with the source that aborts first, and with a DeadlineError at the deadline', async () => {
    const first = new AbortController();
    const second = new AbortController();
    const linked = linkedSignal([first.signal, undefined, second.signal], 60_000);
    second.abort(new Error('second'));
    expect(linked.signal.aborted).toBe(true);
    expect((linked.signal.reason as Error).message).toBe('second');
    first.abort(new Error('first'));
    expect((linked.signal.reason as Error).message).toBe('second');

    const timed = linkedSignal([], 10);
    await listenOnly(timed.signal);
    expect(timed.signal.reason).toBeInstanceOf(DeadlineError);
  });

  it('is aborted at once by a source aborted already, and dispose() stops the deadline and the sources', async () => {
    const gone = new AbortController();
    gone.abort(new Error('before'));
    expect(linkedSignal([gone.signal], 10).signal.aborted).toBe(true);

    const source = new AbortController();
    const linked = linkedSignal([source.signal], 10);
    linked.dispose();
    source.abort();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(linked.signal.aborted).toBe(false);
  });
});
