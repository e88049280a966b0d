import { describe, expect, it } from 'vitest';
import { READ_AHEAD, readAhead } from '../../../../main/content/read/read-ahead.js';

/** A source that records how far it has been pulled, and can fail at one item. */
function counting(total: number, failAt?: number): { source: AsyncGenerator<number>; pulled: () => number; returned: () => boolean } {
  let pulled = 0;
  let returned = false;
  const source = (async function* () {
    try {
      for (let i = 0; i < total; i++) {
        await new Promise((resolve) => setImmediate(resolve));
        if (i === failAt) throw new Error(`item ${i} unreadable`);
        pulled = i + 1;
        yield i;
      }
    } finally {
      returned = true;
    }
  })();
  return { source, pulled: () => pulled, returned: () => returned };
}

describe('readAhead', () => {
  it('yields every item in order', async () => {
    const { source } = counting(20);
    const seen: number[] = [];
    for await (const item of readAhead(source)) seen.push(item);
    expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('reads at most READ_AHEAD items past the one the consumer holds', async () => {
    const { source, pulled } = counting(50);
    const iterator = readAhead(source);
    expect((await iterator.next()).value).toBe(0);
    // Let the read-ahead run as far as it may.
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(pulled()).toBe(1 + READ_AHEAD);
    await iterator.return(undefined);
  });

  it('stops the source when the consumer stops early', async () => {
    const { source, returned, pulled } = counting(1_000);
    for await (const item of readAhead(source)) if (item === 2) break;
    expect(returned()).toBe(true);
    expect(pulled()).toBeLessThan(10);
  });

  it('delivers a failure in its place, after the items before it', async () => {
    const { source } = counting(10, 6);
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const item of readAhead(source)) seen.push(item);
      })(),
    ).rejects.toThrow('item 6 unreadable');
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
