import type { Readable } from 'node:stream';

/** Memory an importer lends for chunks (its hash arena), and takes back. */
export interface ChunkMemory {
  allocate(length: number): Uint8Array;
  release(bytes: Uint8Array): void;
}

/**
 * A byte source that cuts itself into the importer's chunks, in memory the importer lends: `size`-byte
 * chunks, the last one shorter, one empty chunk for an empty source. A yielded chunk belongs to the
 * importer. The importer then has nothing to copy.
 */
export interface ChunkingSource {
  chunks(size: number, memory: ChunkMemory, signal?: AbortSignal): AsyncIterable<Uint8Array>;
}

export function isChunkingSource(source: unknown): source is ChunkingSource {
  return typeof source === 'object' && source !== null && typeof (source as Partial<ChunkingSource>).chunks === 'function';
}

/**
 * Whole chunks waiting for the importer before the stream is paused. Hashing sets an upload's pace, and
 * reading further ahead only took CPU from the hash workers: with 4 or 8 a 1 GiB upload was slower than
 * with 1 (measured against the server before this reader, alternating, same data).
 */
const READY_CHUNKS = 1;

export interface ReadableChunkOptions {
  signal?: AbortSignal;
  /** Sees every piece's length as it arrives, before it is kept; throwing stops the read with that error. */
  onPiece?: (bytes: number) => void;
  /** The least the stream must deliver while it is being read; see {@link MinimumPace}. */
  pace?: MinimumPace;
}

/**
 * A minimum transfer rate, as Apache's mod_reqtimeout MinRate: in every window of `windowMs` during which
 * the stream is being read, at least `minBytes()` bytes (asked at the window's start) must arrive, else the
 * read stops with `error(received)`. A client that stopped sending and one that trickles a byte at a time
 * are both cut off within two windows. Time the stream spends paused by our own backpressure, waiting for
 * the importer, is the server's, not the client's: a pause ends the window, reading again starts a new one.
 */
export interface MinimumPace {
  windowMs: number;
  minBytes: () => number;
  error: (received: number, required: number) => unknown;
}

/**
 * Cuts a Node stream into chunks, copying each piece into lent memory from inside the 'data' event. An
 * HTTP body arrives in 64 KiB pieces; going through an async iterator (and a generator or two on top)
 * costs a promise and several microtasks per piece, which for a 1 GiB upload was a good part of the
 * server's main-thread time. Here the per-piece work is one copy, and the importer waits once per chunk.
 * Backpressure: the stream is paused while READY_CHUNKS chunks wait. Measured on a 1 GiB upload, server
 * CPU fell from 5.1-6.7 s to 3.0-6.2 s (pairs alternating with the old reader on a noisy machine).
 */
export async function* readableChunks(stream: Readable, size: number, memory: ChunkMemory, options: ReadableChunkOptions = {}): AsyncGenerator<Uint8Array> {
  const { signal, onPiece, pace } = options;
  const ready: Uint8Array[] = [];
  let buffer: Uint8Array | undefined;
  let fill = 0;
  let ended = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  // Armed while the stream flows, one window at a time; refresh() starts the next window on the same timer.
  let paceTimer: NodeJS.Timeout | undefined;
  let windowBytes = 0;
  let windowRequired = 0;
  const notify = (): void => {
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };
  const stopPace = (): void => {
    clearTimeout(paceTimer);
    paceTimer = undefined;
  };
  const fail = (error: unknown): void => {
    failure ??= { error };
    stopPace();
    stream.pause();
    notify();
  };
  const openWindow = (): void => {
    windowBytes = 0;
    windowRequired = pace?.minBytes() ?? 0;
  };
  const closeWindow = (): void => {
    if (pace === undefined || paceTimer === undefined) return;
    if (windowBytes < windowRequired) {
      fail(pace.error(windowBytes, windowRequired));
      return;
    }
    openWindow();
    paceTimer.refresh();
  };
  const startPace = (): void => {
    if (pace === undefined || paceTimer !== undefined || failure !== undefined || ended) return;
    openWindow();
    paceTimer = setTimeout(closeWindow, pace.windowMs);
  };
  const onData = (piece: Uint8Array): void => {
    if (failure !== undefined) return;
    windowBytes += piece.byteLength;
    try {
      onPiece?.(piece.byteLength);
    } catch (error) {
      fail(error);
      return;
    }
    let offset = 0;
    while (offset < piece.byteLength) {
      buffer ??= memory.allocate(size);
      const take = Math.min(size - fill, piece.byteLength - offset);
      buffer.set(take === piece.byteLength ? piece : piece.subarray(offset, offset + take), fill);
      fill += take;
      offset += take;
      if (fill === size) {
        ready.push(buffer);
        buffer = undefined;
        fill = 0;
      }
    }
    if (ready.length >= READY_CHUNKS) {
      stream.pause();
      stopPace();
    }
    if (ready.length > 0) notify();
  };
  const onEnd = (): void => {
    ended = true;
    stopPace();
    notify();
  };
  const onError = (error: unknown): void => fail(error);
  // A stream that closes without 'end' (the client went away) delivered less than it meant to.
  const onClose = (): void => {
    if (!ended) fail(new Error('the stream closed before it ended'));
  };
  const onAbort = (): void => fail(signal?.reason);
  stream.on('data', onData);
  stream.once('end', onEnd);
  stream.on('error', onError);
  stream.once('close', onClose);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  // A stream that failed or closed before this read began (its reader awaited a database first, and the
  // form's parser destroyed it meanwhile) emitted its 'error' and 'close' to nobody: they will not come again.
  if (stream.errored) fail(stream.errored);
  else if (stream.destroyed && !stream.readableEnded) onClose();
  startPace();
  let emitted = false;
  try {
    for (;;) {
      const chunk = ready.shift();
      if (chunk !== undefined) {
        if (ready.length < READY_CHUNKS && failure === undefined && !ended) {
          stream.resume();
          startPace();
        }
        emitted = true;
        yield chunk;
        continue;
      }
      if (failure !== undefined) throw failure.error;
      if (ended) break;
      await new Promise<void>((resolve) => (wake = resolve));
    }
    if (buffer !== undefined && fill > 0) {
      // An exact-size copy, so a short last chunk does not pin a whole chunk of memory.
      const last = memory.allocate(fill);
      last.set(buffer.subarray(0, fill));
      memory.release(buffer);
      buffer = undefined;
      yield last;
    } else if (!emitted) {
      yield new Uint8Array(0);
    }
  } finally {
    stopPace();
    stream.off('data', onData);
    stream.off('end', onEnd);
    stream.off('error', onError);
    stream.off('close', onClose);
    signal?.removeEventListener('abort', onAbort);
    if (!ended) {
      stream.pause();
      // Nobody reads this stream any more: a late error (the client going away) must not go unhandled.
      stream.on('error', () => undefined);
    }
    for (const left of ready.splice(0)) memory.release(left);
    if (buffer !== undefined) memory.release(buffer);
  }
}
