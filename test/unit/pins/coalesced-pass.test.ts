import { describe, expect, it } from 'vitest';
import { CoalescedPass } from '../../../main/pins/coalesced-pass.js';

/** A pass the test ends by hand, counting how many began. */
function gatedRun() {
  const gates: (() => void)[] = [];
  return {
    gates,
    run: () => new Promise<void>((resolve) => gates.push(resolve)),
  };
}

describe('one pass at a time, nudges coalesced', () => {
  it('nudges during a pass run one more pass after it, however many came', async () => {
    const { gates, run } = gatedRun();
    const pass = new CoalescedPass(run, () => undefined);
    pass.nudge();
    pass.nudge();
    pass.nudge();
    expect(gates).toHaveLength(1);
    gates[0]!();
    await expect.poll(() => gates.length).toBe(2);
    gates[1]!();
    await pass.idle();
    expect(gates).toHaveLength(2);
  });

  it('idle resolves once the pass under way, and the one it owes, have ended', async () => {
    const { gates, run } = gatedRun();
    let ended = 0;
    const pass = new CoalescedPass(
      async () => {
        await run();
        ended++;
      },
      () => undefined,
    );
    pass.nudge();
    pass.nudge();
    const idle = pass.idle();
    let idleSeen = false;
    void idle.then(() => (idleSeen = true));
    gates[0]!();
    await expect.poll(() => gates.length).toBe(2);
    expect(idleSeen).toBe(false);
    gates[1]!();
    await idle;
    expect(ended).toBe(2);
  });

  it('a pass that throws is reported, and the next nudge runs again', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const pass = new CoalescedPass(
      async () => {
        runs++;
        throw new Error('store closed');
      },
      (error) => errors.push(error),
    );
    pass.nudge();
    await pass.idle();
    pass.nudge();
    await pass.idle();
    expect(runs).toBe(2);
    expect(errors).toHaveLength(2);
  });

  it('after stop, nothing more runs: not the pass asked again, not a new one', async () => {
    const { gates, run } = gatedRun();
    const pass = new CoalescedPass(run, () => undefined);
    pass.nudge();
    pass.nudge();
    const stopped = pass.stop();
    pass.nudge();
    gates[0]!();
    await stopped;
    expect(gates).toHaveLength(1);
  });
});
