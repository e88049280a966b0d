/** Blocks read ahead of the one being sent: enough to keep a socket busy through a disk read's latency. */
export const READ_AHEAD = 4;

/**
 * Fetches up to READ_AHEAD items ahead while the consumer handles the current one, so reading the next
 * blocks from disk overlaps sending this one to the socket. Memory stays at READ_AHEAD + 1 blocks.
 */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  const queue: Array<Promise<IteratorResult<T>>> = [];
  let ended = false;
  // An async generator runs one next() at a time, so queued calls are served in order.
  const fill = (): void => {
    while (!ended && queue.length < READ_AHEAD) {
      const next = iterator.next();
      // A consumer that stops early must not leave a read-ahead as an unhandled rejection.
      next.catch(() => undefined);
      queue.push(next);
    }
  };
  try {
    for (;;) {
      fill();
      const result = await (queue.shift() as Promise<IteratorResult<T>>);
      if (result.done) {
        ended = true;
        return;
      }
      fill();
      yield result.value;
    }
  } finally {
    await iterator.return?.();
  }
}
