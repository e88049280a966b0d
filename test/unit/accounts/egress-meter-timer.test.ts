import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEgressMeter } from '../../../main/accounts/egress-meter.js';
import type { Store, Transaction } from '../../../main/store/repositories/index.js';

/**
 * The meter's timer (the store behind it: test/integration/repositories/egress-meter.test.ts): none while
 * nothing is pending, so an idle service is not woken four times a second; one flush `intervalMs` after the
 * first bytes, whatever else arrives meanwhile.
 */
describe('the egress meter’s timer', () => {
  const written: [number, number][] = [];
  const store = { transaction: async <T>(work: (tx: Transaction) => Promise<T>) => work({} as Transaction) } as unknown as Store;
  const write = async (_tx: Transaction, accountId: number, bytes: number): Promise<void> => void written.push([accountId, bytes]);

  beforeEach(() => {
    written.length = 0;
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('arms no timer while nothing is pending, one at the first bytes, and flushes them together', async () => {
    const meter = createEgressMeter(store, write, () => undefined, 250);
    expect(vi.getTimerCount()).toBe(0);
    meter.add(1, 0);
    expect(vi.getTimerCount()).toBe(0);
    meter.add(1, 100);
    meter.add(2, 5);
    meter.add(1, 20);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(250);
    expect(written).toEqual([
      [1, 120],
      [2, 5],
    ]);
    expect(vi.getTimerCount()).toBe(0);
    await meter.close();
  });

  it('tries bytes whose write failed again at the next timer', async () => {
    let failing = true;
    const errors: unknown[] = [];
    const flaky = async (tx: Transaction, accountId: number, bytes: number): Promise<void> => {
      if (failing) throw new Error('busy');
      await write(tx, accountId, bytes);
    };
    const meter = createEgressMeter(store, flaky, (error) => errors.push(error), 250);
    meter.add(1, 7);
    await vi.advanceTimersByTimeAsync(250);
    expect(errors).toHaveLength(1);
    expect(meter.pending(1)).toBe(7);
    expect(vi.getTimerCount()).toBe(1);
    failing = false;
    await vi.advanceTimersByTimeAsync(250);
    expect(written).toEqual([[1, 7]]);
    expect(vi.getTimerCount()).toBe(0);
    await meter.close();
  });

  it('close() writes what is pending and leaves no timer', async () => {
    const meter = createEgressMeter(store, write, () => undefined, 250);
    meter.add(3, 9);
    await meter.close();
    expect(written).toEqual([[3, 9]]);
    expect(vi.getTimerCount()).toBe(0);
    meter.add(3, 1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
