/**
 * At most `size` tasks at once, the others waiting their turn in order: lookups of many records (the Files
 * page's recent uploads, up to 50) leave the browser's few connections to the service free for the
 * requests a user is waiting for.
 */
export interface Limiter {
  /** Runs `task` once fewer than `size` run; a task whose `signal` aborts while it waits never starts (its promise rejects with the reason). */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Tasks started and not yet settled. */
  readonly running: number;
  /** Tasks waiting for their turn. */
  readonly waiting: number;
}

export function createLimiter(size: number): Limiter {
  let running = 0;
  const queue: Array<() => void> = [];
  const next = () => {
    if (running < size) queue.shift()?.();
  };
  return {
    run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        if (signal?.aborted) {
          reject(abortReason(signal));
          return;
        }
        const drop = () => {
          queue.splice(queue.indexOf(start), 1);
          if (signal) reject(abortReason(signal));
        };
        const start = () => {
          signal?.removeEventListener('abort', drop);
          running += 1;
          // A task that throws rather than rejects still gives its place back.
          Promise.resolve()
            .then(task)
            .then(resolve, reject)
            .finally(() => {
              running -= 1;
              next();
            });
        };
        queue.push(start);
        signal?.addEventListener('abort', drop, { once: true });
        next();
      });
    },
    get running() {
      return running;
    },
    get waiting() {
      return queue.length;
    },
  };
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('The task was aborted before it started.', 'AbortError');
}
