import { describe, expect, it } from 'vitest';
import { SerialQueue } from '../../../main/sync/serial-queue.js';

/** A job that records its start and end around a wait its test releases. */
function gatedJob(log: string[], name: string): { job: () => Promise<void>; release: () => void } {
  let release = (): void => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    job: async () => {
      log.push(`${name} start`);
      await gate;
      log.push(`${name} end`);
    },
    release: () => release(),
  };
}

describe('a folder runner serial queue', () => {
  it('runs one job at a time, in the order they came', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const first = gatedJob(log, 'first');
    const second = gatedJob(log, 'second');
    const ran = [queue.enqueue(first.job), queue.enqueue(second.job)];
    second.release();
    await Promise.resolve();
    await Promise.resolve();
    expect(log).toEqual(['first start']);
    first.release();
    await Promise.all(ran);
    expect(log).toEqual(['first start', 'first end', 'second start', 'second end']);
  });

  it('hands a failure to the job caller and runs the jobs after it', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const failed = queue.enqueue(async () => {
      throw new Error('batch failed');
    });
    const next = queue.enqueue(async () => {
      log.push('next');
    });
    await expect(failed).rejects.toThrow('batch failed');
    await next;
    expect(log).toEqual(['next']);
  });

  it('is drained once every job queued so far ran, failed ones included', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const job = gatedJob(log, 'job');
    void queue.enqueue(job.job);
    queue
      .enqueue(async () => {
        throw new Error('ignored by drained');
      })
      .catch(() => undefined);
    let drained = false;
    const waiting = queue.drained().then(() => {
      drained = true;
    });
    await Promise.resolve();
    expect(drained).toBe(false);
    job.release();
    await waiting;
    expect(log).toEqual(['job start', 'job end']);
    await expect(queue.drained()).resolves.toBeUndefined();
  });
});
