import { describe, expect, it } from 'vitest';
import { POOLED_BUFFER_BYTES, ReadBufferPool } from '../../../../main/content/read/buffer-pool.js';

describe('ReadBufferPool', () => {
  it('lends exactly the bytes asked for and lends the same memory again once it is back', () => {
    const pool = new ReadBufferPool();
    const first = pool.take(1000);
    expect(first.byteLength).toBe(1000);
    expect(pool.lentCount).toBe(1);
    pool.release(first.subarray(10, 20));
    expect(pool.lentCount).toBe(0);
    expect(pool.freeCount).toBe(1);
    const second = pool.take(POOLED_BUFFER_BYTES);
    expect(second.buffer).toBe(first.buffer);
    expect(pool.freeCount).toBe(0);
  });

  it('never lends one buffer twice: a second release of the same bytes is ignored', () => {
    const pool = new ReadBufferPool();
    const bytes = pool.take(64);
    pool.release(bytes);
    pool.release(bytes);
    expect(pool.freeCount).toBe(1);
    const a = pool.take(64);
    const b = pool.take(64);
    expect(a.buffer).not.toBe(b.buffer);
  });

  it('ignores bytes it did not lend, and does not pool a block bigger than its buffers', () => {
    const pool = new ReadBufferPool();
    pool.release(Buffer.alloc(16));
    expect(pool.freeCount).toBe(0);
    const big = pool.take(POOLED_BUFFER_BYTES + 1);
    expect(big.byteLength).toBe(POOLED_BUFFER_BYTES + 1);
    expect(pool.lentCount).toBe(0);
    pool.release(big);
    expect(pool.freeCount).toBe(0);
  });

  it('keeps a bounded number of free buffers, however many were out at once', () => {
    const pool = new ReadBufferPool();
    const lent = Array.from({ length: 40 }, () => pool.take(POOLED_BUFFER_BYTES));
    for (const bytes of lent) pool.release(bytes);
    expect(pool.lentCount).toBe(0);
    expect(pool.freeCount).toBeGreaterThan(0);
    expect(pool.freeCount).toBeLessThan(40);
  });
});
