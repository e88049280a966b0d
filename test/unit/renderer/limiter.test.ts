/** lib/limiter.ts: at most N tasks at once, the rest in order; a task aborted while it waits never starts. */
import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../../renderer/lib/limiter.js';
import { deferred, type Deferred } from '../../helpers/deferred.js';

/** Lets queued promise callbacks run (the limiter starts the next task from a settled one's callbacks). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('createLimiter', () => {
  it('runs at most `size` tasks at once and starts the next, in order, as one settles', async () => {
    const limiter = createLimiter(2);
    const started: number[] = [];
    const gates: Array<Deferred<number>> = [];
    const results = [0, 1, 2, 3].map((index) => {
      const gate = deferred<number>();
      gates.push(gate);
      return limiter.run(() => {
        started.push(index);
        return gate.promise;
      });
    });
    // Held from the start: it is rejected below, before the test looks at it.
    results[0]?.catch(() => undefined);
    await settle();
    expect(started).toEqual([0, 1]);
    expect([limiter.running, limiter.waiting]).toEqual([2, 2]);

    gates[1]?.resolve(1);
    await settle();
    expect(started).toEqual([0, 1, 2]);
    // A failure gives its place back too, and reaches its own caller only.
    gates[0]?.reject(new Error('refused'));
    await settle();
    expect(started).toEqual([0, 1, 2, 3]);
    gates[2]?.resolve(2);
    gates[3]?.resolve(3);
    await expect(results[0]).rejects.toThrow('refused');
    expect(await Promise.all(results.slice(1))).toEqual([1, 2, 3]);
    expect([limiter.running, limiter.waiting]).toEqual([0, 0]);
  });

  it('never starts a task whose signal aborts while it waits, and lets the next one take its turn', async () => {
    const limiter = createLimiter(1);
    const first = deferred<string>();
    const started: string[] = [];
    const task = (name: string, result: Promise<string>) => () => {
      started.push(name);
      return result;
    };
    const running = limiter.run(task('first', first.promise));
    const controller = new AbortController();
    const dropped = limiter.run(task('dropped', Promise.resolve('dropped')), controller.signal);
    const next = limiter.run(task('next', Promise.resolve('next')));
    controller.abort(new Error('not wanted'));
    await expect(dropped).rejects.toThrow('not wanted');
    expect(limiter.waiting).toBe(1);

    first.resolve('first');
    expect(await running).toBe('first');
    expect(await next).toBe('next');
    expect(started).toEqual(['first', 'next']);
  });

  it('refuses a task whose signal is already aborted, and one that throws gives its place back', async () => {
    const limiter = createLimiter(1);
    await expect(limiter.run(() => Promise.resolve(1), AbortSignal.abort())).rejects.toThrow();
    await expect(
      limiter.run(() => {
        throw new Error('thrown');
      }),
    ).rejects.toThrow('thrown');
    expect(await limiter.run(() => Promise.resolve('after'))).toBe('after');
  });
});
