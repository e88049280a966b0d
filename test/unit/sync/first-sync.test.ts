import { describe, expect, it } from 'vitest';
import { FirstSync } from '../../../main/sync/first-sync.js';

describe("a folder runner's first sync", () => {
  it('resolves on its first outcome and ignores later ones', async () => {
    const first = new FirstSync();
    first.settle();
    first.settle(new Error('paused later'));
    await expect(first.done).resolves.toBeUndefined();
  });

  it('rejects with the first failure, not a later one', async () => {
    const first = new FirstSync();
    first.settle(new Error('root gone'));
    first.settle(new Error('stopped'));
    first.settle();
    await expect(first.done).rejects.toThrow('root gone');
  });

  it('waits until it is settled', async () => {
    const first = new FirstSync();
    let settled = false;
    void first.done.then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    first.settle();
    await first.done;
    expect(settled).toBe(true);
  });

  it('leaves no unhandled rejection when nobody waits for it (a runner started at restart)', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      new FirstSync().settle(new Error('paused before anyone asked'));
      // Node reports unhandled rejections once the microtasks have run, before the next macrotask.
      await new Promise<void>((resolve) => setImmediate(resolve));
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});
