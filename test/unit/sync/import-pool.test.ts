import { describe, it, expect } from 'vitest';
import { forEachPooled, Gate } from '../../../main/sync/import-pool.js';
import { deferred } from '../../helpers/deferred.js';

describe('forEachPooled', () => {
  it('runs at most `concurrency` items at once, each once, in order of start', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await forEachPooled([1, 2, 3, 4, 5], 2, async (n) => {
      started.push(n);
      running++;
      most = Math.max(most, running);
      await Promise.resolve();
      running--;
    });
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it('rejects with the first failure and starts nothing after it', async () => {
    const started: number[] = [];
    const slow = deferred();
    const run = forEachPooled([1, 2, 3, 4], 2, async (n) => {
      started.push(n);
      if (n === 1) await slow.promise;
      if (n === 2) throw new Error('two failed');
    });
    await expect(run).rejects.toThrow('two failed');
    slow.resolve();
    // Every continuation of the released item runs before the next macrotask.
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([1, 2]);
  });
});

describe('Gate', () => {
  it('lets `limit` in and the next waiter in as one leaves', async () => {
    const gate = new Gate(2);
    await gate.enter();
    await gate.enter();
    let third = false;
    const waiting = gate.enter().then(() => (third = true));
    await Promise.resolve();
    expect(third).toBe(false);
    gate.leave();
    await waiting;
    expect(third).toBe(true);
    expect(gate.held).toBe(2);
  });

  it('never lets in more than `limit`, even when one arrives between a leave and the waiter it woke', async () => {
    const gate = new Gate(1);
    await gate.enter();
    let woken = false;
    const waiting = gate.enter().then(() => (woken = true));
    gate.leave();
    const barging = gate.enter();
    await barging;
    await new Promise((resolve) => setImmediate(resolve));
    expect(gate.held).toBe(1);
    expect(woken).toBe(false);
    gate.leave();
    await waiting;
    expect(gate.held).toBe(1);
  });
});
