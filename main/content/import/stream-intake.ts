import type { Readable } from 'node:stream';
import { ChunkCutter } from './chunk-cutter.js';
import { PaceWindows } from './pace-windows.js';
import type { ChunkMemory, ReadableChunkOptions } from './readable-chunks.js';

/**
 * Whole chunks waiting for the importer before the stream is paused. Hashing sets an upload's pace, and
 * reading further ahead only took CPU from the hash workers: with 4 or 8 a 1 GiB upload was slower than
 * with 1 (measured against the server before this reader, alternating, same data).
 */
const READY_CHUNKS = 1;

/**
 * The stream's side of readableChunks: its listeners, which copy each piece into chunks from inside the
 * 'data' event, pause the stream while READY_CHUNKS chunks wait, and record how the stream ended or failed
 * (the first failure wins), waking the reader waiting for either.
 */
export class StreamIntake {
  readonly cutter: ChunkCutter;
  ended = false;
  failure: { error: unknown } | undefined;
  private wake: (() => void) | undefined;
  private readonly pacer: PaceWindows;
  private readonly signal: AbortSignal | undefined;
  private readonly onPiece: ((bytes: number) => void) | undefined;

  constructor(
    private readonly stream: Readable,
    size: number,
    memory: ChunkMemory,
    options: ReadableChunkOptions,
  ) {
    this.cutter = new ChunkCutter(size, memory);
    this.pacer = new PaceWindows(options.pace, this.fail);
    this.signal = options.signal;
    this.onPiece = options.onPiece;
  }

  /** Listens, and fails at once when the stream or the signal did before. */
  attach(): void {
    const { stream, signal } = this;
    stream.on('data', this.onData);
    stream.once('end', this.onEnd);
    stream.on('error', this.fail);
    stream.once('close', this.onClose);
    signal?.addEventListener('abort', this.onAbort, { once: true });
    if (signal?.aborted) this.onAbort();
    // A stream that failed or closed before this read began (its reader awaited a database first, and the
    // form's parser destroyed it meanwhile) emitted its 'error' and 'close' to nobody: they will not come again.
    if (stream.errored) this.fail(stream.errored);
    else if (stream.destroyed && !stream.readableEnded) this.onClose();
    this.startPace();
  }

  /** Settles when a chunk is ready, the stream ended or the read failed. */
  more(): Promise<void> {
    return new Promise<void>((resolve) => (this.wake = resolve));
  }

  /** After a chunk was taken: reads on while there is room for the next. */
  resumeIfRoom(): void {
    if (this.cutter.ready.length < READY_CHUNKS && this.failure === undefined && !this.ended) {
      this.stream.resume();
      this.startPace();
    }
  }

  /** Stops listening, leaves an unfinished stream paused and gives back every chunk not taken. */
  detach(): void {
    const { stream } = this;
    this.pacer.stop();
    stream.off('data', this.onData);
    stream.off('end', this.onEnd);
    stream.off('error', this.fail);
    stream.off('close', this.onClose);
    this.signal?.removeEventListener('abort', this.onAbort);
    if (!this.ended) {
      stream.pause();
      // Nobody reads this stream any more: a late error (the client going away) must not go unhandled.
      stream.on('error', () => undefined);
    }
    this.cutter.releaseAll();
  }

  private readonly fail = (error: unknown): void => {
    this.failure ??= { error };
    this.pacer.stop();
    this.stream.pause();
    this.notify();
  };

  private notify(): void {
    const waiting = this.wake;
    this.wake = undefined;
    waiting?.();
  }

  private startPace(): void {
    if (this.failure === undefined && !this.ended) this.pacer.start();
  }

  private readonly onData = (piece: Uint8Array): void => {
    if (this.failure !== undefined) return;
    this.pacer.count(piece.byteLength);
    try {
      this.onPiece?.(piece.byteLength);
    } catch (error) {
      this.fail(error);
      return;
    }
    const { ready } = this.cutter;
    this.cutter.cut(piece);
    if (ready.length >= READY_CHUNKS) {
      this.stream.pause();
      this.pacer.stop();
    }
    if (ready.length > 0) this.notify();
  };

  private readonly onEnd = (): void => {
    this.ended = true;
    this.pacer.stop();
    this.notify();
  };

  // A stream that closes without 'end' (the client went away) delivered less than it meant to.
  private readonly onClose = (): void => {
    if (!this.ended) this.fail(new Error('the stream closed before it ended'));
  };

  private readonly onAbort = (): void => this.fail(this.signal?.reason);
}
