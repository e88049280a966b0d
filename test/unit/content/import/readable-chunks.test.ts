import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { readableChunks, type ChunkMemory, type MinimumPace } from '../../../../main/content/import/readable-chunks.js';

/** Lent memory that counts what is out, so a test sees every chunk come back. */
function countingMemory(): ChunkMemory & { out: Set<Uint8Array>; lent: number } {
  const memory = {
    out: new Set<Uint8Array>(),
    lent: 0,
    allocate(length: number): Uint8Array {
      const bytes = new Uint8Array(length);
      memory.out.add(bytes);
      memory.lent++;
      return bytes;
    },
    release(bytes: Uint8Array): void {
      memory.out.delete(bytes);
    },
  };
  return memory;
}

const bytes = (length: number, fill: number): Buffer => Buffer.alloc(length, fill);

async function collect(source: AsyncIterable<Uint8Array>, memory: ChunkMemory): Promise<number[][]> {
  const out: number[][] = [];
  for await (const chunk of source) {
    out.push([...chunk]);
    memory.release(chunk);
  }
  return out;
}

describe('readableChunks', () => {
  it('cuts a stream into chunks of the size in lent memory, the last one an exact-size copy', async () => {
    const memory = countingMemory();
    const stream = Readable.from([bytes(3, 1), bytes(6, 2), bytes(2, 3)], { objectMode: false });
    expect(await collect(readableChunks(stream, 4, memory), memory)).toEqual([
      [1, 1, 1, 2],
      [2, 2, 2, 2],
      [2, 3, 3],
    ]);
    expect(memory.out.size).toBe(0);
  });

  it('yields one empty chunk for an empty stream', async () => {
    const memory = countingMemory();
    expect(await collect(readableChunks(Readable.from([], { objectMode: false }), 4, memory), memory)).toEqual([[]]);
    expect(memory.out.size).toBe(0);
  });

  it('stops with the error onPiece throws, and gives back every chunk it held', async () => {
    const memory = countingMemory();
    const stream = Readable.from([bytes(4, 1), bytes(4, 2), bytes(3, 3)], { objectMode: false });
    let seen = 0;
    const onPiece = (length: number): void => {
      seen += length;
      if (seen > 10) throw new Error('too large');
    };
    const got: Uint8Array[] = [];
    await expect(
      (async () => {
        for await (const chunk of readableChunks(stream, 4, memory, { onPiece })) got.push(chunk);
      })(),
    ).rejects.toThrow('too large');
    for (const chunk of got) memory.release(chunk);
    expect(memory.out.size).toBe(0);
  });

  it('fails when the stream errors or closes before it ended, and gives back what it held', async () => {
    const memory = countingMemory();
    const broken = new PassThrough();
    const reading = collect(readableChunks(broken, 4, memory), memory);
    broken.write(bytes(6, 1));
    broken.destroy(new Error('connection reset'));
    await expect(reading).rejects.toThrow('connection reset');
    expect(memory.out.size).toBe(0);

    const cut = new PassThrough();
    const cutReading = collect(readableChunks(cut, 4, memory), memory);
    cut.write(bytes(2, 1));
    cut.destroy();
    await expect(cutReading).rejects.toThrow('closed before it ended');
    expect(memory.out.size).toBe(0);
  });

  it('fails when its signal aborts', async () => {
    const memory = countingMemory();
    const stream = new PassThrough();
    const controller = new AbortController();
    const reading = collect(readableChunks(stream, 4, memory, { signal: controller.signal }), memory);
    stream.write(bytes(5, 1));
    controller.abort(new Error('import cancelled'));
    await expect(reading).rejects.toThrow('import cancelled');
    expect(memory.out.size).toBe(0);
  });

  it('pauses the stream while a whole chunk waits, and resumes when it is taken', async () => {
    const memory = countingMemory();
    const stream = new PassThrough({ highWaterMark: 4 });
    const chunks = readableChunks(stream, 4, memory)[Symbol.asyncIterator]();
    stream.write(bytes(4, 1));
    stream.write(bytes(4, 2));
    const first = await chunks.next();
    expect([...(first.value as Uint8Array)]).toEqual([1, 1, 1, 1]);
    // The second chunk comes ready and nobody takes it: reading stops there, so memory stays bounded.
    for (let turn = 0; turn < 100 && !stream.isPaused(); turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(stream.isPaused()).toBe(true);
    expect(stream.readableLength).toBe(0);
    const second = await chunks.next();
    expect([...(second.value as Uint8Array)]).toEqual([2, 2, 2, 2]);
    expect(stream.isPaused()).toBe(false);
    stream.end();
    expect((await chunks.next()).done).toBe(true);
  });

  it('a consumer that stops early gives back every chunk it did not take, and the stream stays paused', async () => {
    const memory = countingMemory();
    const stream = new PassThrough();
    const chunks = readableChunks(stream, 4, memory)[Symbol.asyncIterator]();
    stream.write(bytes(4, 1));
    stream.write(bytes(6, 2));
    const first = await chunks.next();
    memory.release(first.value as Uint8Array);
    await chunks.return?.(undefined);
    expect(memory.out.size).toBe(0);
    expect(stream.isPaused()).toBe(true);
    // A late error on the abandoned stream is not an unhandled one.
    stream.destroy(new Error('late'));
    await new Promise((resolve) => setImmediate(resolve));
  });
});

describe('readableChunks minimum pace', () => {
  const pace = (minBytes: number): MinimumPace => ({
    windowMs: 1000,
    minBytes: () => minBytes,
    error: (received, required) => new Error(`slow ${received}/${required}`),
  });

  /** Lets stream events (next ticks, immediates, microtasks) run without moving the faked clock. */
  async function settle(): Promise<void> {
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
  }

  /** How a promise has ended so far: undefined while pending, else 'done' or the error's message. */
  function track(promise: Promise<unknown>): () => string | undefined {
    let outcome: string | undefined;
    promise.then(
      () => (outcome = 'done'),
      (error: unknown) => (outcome = (error as Error).message),
    );
    return () => outcome;
  }

  it('fails when the stream sends nothing for a window', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const memory = countingMemory();
      const stream = new PassThrough();
      const outcome = track(collect(readableChunks(stream, 4, memory, { pace: pace(1) }), memory));
      stream.write(bytes(1, 1));
      await settle();
      vi.advanceTimersByTime(1000);
      await settle();
      // The first window had its byte; the second has none.
      expect(outcome()).toBeUndefined();
      vi.advanceTimersByTime(999);
      await settle();
      expect(outcome()).toBeUndefined();
      vi.advanceTimersByTime(1);
      await settle();
      expect(outcome()).toBe('slow 0/1');
      expect(memory.out.size).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('fails at once on a stream that errored or closed before the read began (its events are gone), not a window later', async () => {
    // A form's file part the parser destroyed (the form never closed) while the importer still awaited its
    // database, as on PostgreSQL: the stream's 'error' and 'close' were emitted before anyone listened.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const memory = countingMemory();
      const errored = new PassThrough();
      errored.on('error', () => undefined);
      errored.destroy(new Error('Unexpected end of form'));
      const closed = new PassThrough();
      closed.destroy();
      await settle();
      const erroredOutcome = track(collect(readableChunks(errored, 4, memory, { pace: pace(1) }), memory));
      const closedOutcome = track(collect(readableChunks(closed, 4, memory, { pace: pace(1) }), memory));
      await settle();
      expect(erroredOutcome()).toBe('Unexpected end of form');
      expect(closedOutcome()).toBe('the stream closed before it ended');
      expect(memory.out.size).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('fails a stream that keeps sending, but fewer bytes in a window than the minimum (a trickle)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const memory = countingMemory();
      const stream = new PassThrough();
      // Chunks larger than what arrives: no chunk is ever ready, so the stream is never paused.
      const outcome = track(collect(readableChunks(stream, 64, memory, { pace: pace(3) }), memory));
      // Three windows of three bytes pass; in the fourth only two come, a byte every 400 ms as before.
      for (let window = 0; window < 3; window++) {
        for (let piece = 0; piece < 3; piece++) {
          stream.write(bytes(1, piece));
          await settle();
          vi.advanceTimersByTime(piece < 2 ? 400 : 200);
          await settle();
        }
        expect(outcome()).toBeUndefined();
      }
      stream.write(bytes(1, 9));
      await settle();
      vi.advanceTimersByTime(400);
      stream.write(bytes(1, 9));
      await settle();
      vi.advanceTimersByTime(599);
      await settle();
      expect(outcome()).toBeUndefined();
      vi.advanceTimersByTime(1);
      await settle();
      expect(outcome()).toBe('slow 2/3');
      expect(memory.out.size).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks for the minimum at the start of each window', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const memory = countingMemory();
      const stream = new PassThrough();
      const asked: number[] = [];
      let minimum = 2;
      const changing: MinimumPace = {
        windowMs: 1000,
        minBytes: () => {
          asked.push(minimum);
          return minimum;
        },
        error: (received, required) => new Error(`slow ${received}/${required}`),
      };
      const outcome = track(collect(readableChunks(stream, 4, memory, { pace: changing }), memory));
      stream.write(bytes(2, 1));
      await settle();
      minimum = 1;
      vi.advanceTimersByTime(1000);
      stream.write(bytes(1, 2));
      await settle();
      vi.advanceTimersByTime(1000);
      await settle();
      expect(asked).toEqual([2, 1, 1]);
      expect(outcome()).toBeUndefined();
      stream.end();
      await settle();
      expect(outcome()).toBe('done');
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not count the time the stream is paused waiting for the consumer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const memory = countingMemory();
      const stream = new PassThrough({ highWaterMark: 4 });
      const chunks = readableChunks(stream, 4, memory, { pace: pace(1) })[Symbol.asyncIterator]();
      stream.write(bytes(4, 1));
      stream.write(bytes(4, 2));
      const first = await chunks.next();
      memory.release(first.value as Uint8Array);
      await settle();
      expect(stream.isPaused()).toBe(true);
      // The consumer is slow: the client is not idle, the server is.
      vi.advanceTimersByTime(10_000);
      const second = await chunks.next();
      memory.release(second.value as Uint8Array);
      // Reading again, a new window starts, from now.
      const third = track(chunks.next());
      await settle();
      expect(third()).toBeUndefined();
      vi.advanceTimersByTime(999);
      await settle();
      expect(third()).toBeUndefined();
      vi.advanceTimersByTime(1);
      await settle();
      expect(third()).toBe('slow 0/1');
      expect(memory.out.size).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is off once the stream ended', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const memory = countingMemory();
      const stream = new PassThrough();
      const reading = collect(readableChunks(stream, 4, memory, { pace: pace(1) }), memory);
      stream.end(bytes(3, 1));
      expect(await reading).toEqual([[1, 1, 1]]);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
