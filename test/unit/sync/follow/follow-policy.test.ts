import { describe, expect, it } from 'vitest';
import { DEFAULT_FOLLOW_TIMING, INITIAL_FOLLOW_STANDING, stepFollow, type FollowStanding } from '../../../../main/sync/follow/follow-policy.js';

const timing = DEFAULT_FOLLOW_TIMING;
const idle = (pushLive: boolean): FollowStanding => ({ ...INITIAL_FOLLOW_STANDING, phase: 'idle', pushLive });

describe('follow policy: a pushing source (issue 24)', () => {
  it('while a source pushes, the periodic check after a cycle waits pushCheckMs; without one, pollMs', () => {
    const busyLive: FollowStanding = { ...INITIAL_FOLLOW_STANDING, pushLive: true };
    expect(stepFollow(busyLive, { type: 'cycle-done' }, timing).effects).toContainEqual({ type: 'schedule-check', ms: timing.pushCheckMs });
    expect(stepFollow(INITIAL_FOLLOW_STANDING, { type: 'cycle-done' }, timing).effects).toContainEqual({ type: 'schedule-check', ms: timing.pollMs });
  });

  it('a pushing source that stops answering brings the next check back to pollMs (the folder then shows why)', () => {
    const step = stepFollow(idle(true), { type: 'push-live', live: false }, timing);
    expect(step.standing.pushLive).toBe(false);
    expect(step.effects).toEqual([{ type: 'schedule-check', ms: timing.pollMs }]);
  });

  it('a source that starts pushing while the folder waits moves the check due from pollMs out to pushCheckMs', () => {
    const step = stepFollow(idle(false), { type: 'push-live', live: true }, timing);
    expect(step.standing.pushLive).toBe(true);
    expect(step.effects).toEqual([{ type: 'schedule-check', ms: timing.pushCheckMs }]);
  });

  it('a source that starts or stops pushing while a cycle runs or a retry waits changes no timer', () => {
    expect(stepFollow(INITIAL_FOLLOW_STANDING, { type: 'push-live', live: true }, timing).effects).toEqual([]);
    expect(stepFollow({ ...idle(false), phase: 'error', failures: 1 }, { type: 'push-live', live: true }, timing).effects).toEqual([]);
    expect(stepFollow({ ...INITIAL_FOLLOW_STANDING, pushLive: true }, { type: 'push-live', live: false }, timing).effects).toEqual([]);
    expect(stepFollow({ ...idle(true), phase: 'error', failures: 1 }, { type: 'push-live', live: false }, timing).effects).toEqual([]);
  });
});
