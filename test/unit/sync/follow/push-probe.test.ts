import { describe, expect, it } from 'vitest';
import { CycleEnds } from '../../../../main/sync/follow/cycle-ends.js';
import { FollowInbox } from '../../../../main/sync/follow/follow-inbox.js';
import { afterPushProbe, FIRST_PUSH_PROBE, PROBE_WAIT_SECONDS, pushedOutcome } from '../../../../main/sync/follow/push-probe.js';

const timing = { probeMs: 600_000, errorRetryMs: 5_000, maxRetryMs: 300_000 };

describe("a pushing source's long-poll", () => {
  it('a source that pushes is asked again at once with the full wait, and turns live once', () => {
    const first = afterPushProbe(FIRST_PUSH_PROBE, 'unchanged', true, timing, 60);
    expect(first).toEqual({ probe: { failures: 0, live: true, waitSeconds: 60 }, waitMs: 0, liveChanged: true });
    const second = afterPushProbe(first.probe, 'record', true, timing, 60);
    expect(second.liveChanged).toBe(false);
  });

  it('a source that does not push is probed again after probeMs with the short wait', () => {
    expect(afterPushProbe(FIRST_PUSH_PROBE, 'record', false, timing, 60)).toEqual({
      probe: { failures: 0, live: false, waitSeconds: 60 },
      waitMs: 600_000,
      liveChanged: false,
    });
  });

  it('failures back off, doubling, with the short wait; a live source that fails is no longer live', () => {
    const live = { failures: 0, live: true, waitSeconds: 60 };
    const once = afterPushProbe(live, 'none', true, timing, 60);
    expect(once).toEqual({ probe: { failures: 1, live: false, waitSeconds: PROBE_WAIT_SECONDS }, waitMs: 5_000, liveChanged: true });
    expect(afterPushProbe(once.probe, 'none', true, timing, 60).waitMs).toBe(10_000);
  });

  it('a pushed record that the cycle did not keep counts as none', () => {
    expect(pushedOutcome(4n, 4n)).toBe('none');
    expect(pushedOutcome(5n, 4n)).toBe('record');
  });
});

describe('what the push loops and cycles share', () => {
  it('the records pushed are taken once, by the next cycle', () => {
    const inbox = new FollowInbox(-1n);
    inbox.push(new Uint8Array([1]));
    inbox.push(new Uint8Array([2]));
    expect(inbox.take()).toEqual([new Uint8Array([1]), new Uint8Array([2])]);
    expect(inbox.take()).toEqual([]);
  });

  it("a cycle's end wakes its waiters once; a stop wakes them too", async () => {
    const ends = new CycleEnds();
    const stopping = new AbortController();
    let woken = 0;
    void ends.next(stopping.signal).then(() => woken++);
    ends.endAll();
    await expect.poll(() => woken).toBe(1);
    ends.endAll();
    void ends.next(stopping.signal).then(() => woken++);
    stopping.abort();
    await expect.poll(() => woken).toBe(2);
  });
});
