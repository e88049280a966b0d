import { describe, expect, it } from 'vitest';
import {
  CANCELLED,
  cancelAnswer,
  commitPointRefusal,
  knownAddressRefusal,
  mayForget,
  newStepTwoEntry,
  outcomeAtEnd,
  RETAIN_SECONDS,
} from '../../../main/http/step-two-state.js';

const running = () => ({ kind: 'running' as const, controller: new AbortController() });

describe('step 2 state', () => {
  it('the commit point: refuses a cancelled or gone step 2, and a second pass; a running one commits', () => {
    expect(commitPointRefusal(running(), false)).toBeUndefined();
    expect(commitPointRefusal(running(), true)).toBe('gone');
    expect(commitPointRefusal({ kind: 'cancelled' }, true)).toBe('cancelled');
    expect(commitPointRefusal({ kind: 'committing', roots: null }, false)).toBe('twice');
  });

  it('at its end: stored once past the commit point (roots unknown when the answer was not reached), else cancelled', () => {
    expect(outcomeAtEnd({ kind: 'committing', roots: ['bafy1'] })).toEqual({ outcome: 'stored', roots: ['bafy1'] });
    expect(outcomeAtEnd({ kind: 'committing', roots: null })).toEqual({ outcome: 'stored', roots: [] });
    expect(outcomeAtEnd(running())).toBe(CANCELLED);
    expect(outcomeAtEnd({ kind: 'ended', outcome: { outcome: 'stored', roots: ['bafy2'] } })).toEqual({ outcome: 'stored', roots: ['bafy2'] });
  });

  it('a cancel aborts a running step 2, waits for a commit under way, else answers what was decided', () => {
    expect(cancelAnswer(running())).toBe('abort');
    expect(cancelAnswer({ kind: 'committing', roots: null })).toBe('wait');
    expect(cancelAnswer({ kind: 'cancelled' })).toBe(CANCELLED);
    expect(cancelAnswer({ kind: 'ended', outcome: { outcome: 'stored', roots: ['bafy3'] } })).toEqual({ outcome: 'stored', roots: ['bafy3'] });
  });

  it('an address known here is refused as cancelled or as used', () => {
    expect(knownAddressRefusal({ kind: 'cancelled' })).toBe('upload address was cancelled');
    expect(knownAddressRefusal({ kind: 'committing', roots: null })).toBe('upload address was already used');
  });

  it('an entry is forgotten only once decided and past its keeping time', () => {
    const decided = newStepTwoEntry({ kind: 'cancelled' }, 1000);
    expect(decided.keepUntil).toBe(1000 + RETAIN_SECONDS);
    expect(mayForget(decided, 1000 + RETAIN_SECONDS)).toBe(false);
    expect(mayForget(decided, 1001 + RETAIN_SECONDS)).toBe(true);
    expect(mayForget(newStepTwoEntry(running(), 1000), 10_000)).toBe(false);
  });

  it("an entry's end is awaited by whoever waits on it", async () => {
    const entry = newStepTwoEntry({ kind: 'committing', roots: null }, 0);
    entry.settle({ outcome: 'stored', roots: ['bafy4'] });
    await expect(entry.ended).resolves.toEqual({ outcome: 'stored', roots: ['bafy4'] });
  });
});
