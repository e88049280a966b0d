import { describe, expect, it } from 'vitest';
import { LimitReachedError } from '../../../main/base/errors.js';
import { UnfetchableDagError } from '../../../main/network/fetch-errors.js';
import { fetchEndAction, PinNotPendingError, planPinFetches, type FetchesNow } from '../../../main/pins/pin-fetch-plan.js';
import type { PinRow } from '../../../main/store/repositories/pins.js';

const pin = (id: number, deadline: number | null = null): PinRow => ({
  id,
  accountId: 1,
  cid: `cid${id}`,
  name: '',
  status: 'pinning',
  size: 0,
  createdAt: 0,
  updatedAt: 0,
  deadline,
  requestId: `r${id}`,
  createdMs: 0,
});

const now = (running: number[] = [], retryAfter: [number, number][] = [], stopping = false): FetchesNow => ({
  running: new Set(running),
  retryAfter: new Map(retryAfter),
  stopping,
});

describe('which pin fetches start and stop', () => {
  it('starts every pinning pin not fetched yet, and stops the fetches of pins no longer pinning', () => {
    const plan = planPinFetches([pin(1), pin(2)], now([2, 3], [[4, 9_999]]), 100, 1_000);
    expect(plan.start.map((p) => p.id)).toEqual([1]);
    expect(plan.stop).toEqual([3]);
    expect(plan.forget).toEqual([4]);
  });

  it('a pin past its deadline is left to settling, one waiting for its retry is not started before it', () => {
    const pending = [pin(1, 100), pin(2, 101), pin(3), pin(4)];
    const plan = planPinFetches(
      pending,
      now(
        [],
        [
          [3, 1_001],
          [4, 1_000],
        ],
      ),
      100,
      1_000,
    );
    expect(plan.start.map((p) => p.id)).toEqual([2, 4]);
    // Both still pinning: their retry times stay.
    expect(plan.forget).toEqual([]);
  });

  it('nothing starts while the fetches close', () => {
    expect(planPinFetches([pin(1)], now([], [], true), 0, 0).start).toEqual([]);
  });
});

describe('what a fetch that threw means', () => {
  it('fails the pin over its limit or on a DAG no source sends whole', () => {
    expect(fetchEndAction(new LimitReachedError('ingress'), false)).toBe('fail-pin');
    expect(fetchEndAction(new UnfetchableDagError('a block is refused by every source'), true)).toBe('fail-pin');
  });

  it('an end on purpose is no failure, anything else is tried again later', () => {
    expect(fetchEndAction(new PinNotPendingError('gone'), false)).toBe('stopped');
    expect(fetchEndAction(new Error('offline'), true)).toBe('stopped');
    expect(fetchEndAction(new Error('socket hang up'), false)).toBe('retry-later');
  });
});
