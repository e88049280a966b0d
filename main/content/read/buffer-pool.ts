/** Size of a pooled buffer: the contract's chunk size, so every leaf Pinfold imports fits one. */
export const POOLED_BUFFER_BYTES = 1024 * 1024;

/** Free buffers kept between responses: about one stream's read-ahead plus what its socket holds. */
const MAX_FREE_BUFFERS = 8;

/**
 * Reusable read buffers for streamed file bodies. A fresh 1 MiB buffer per block is memory outside the
 * JS heap, and V8 answers that with a full collection every few dozen blocks: measured, about 30 per
 * GiB streamed, as much CPU as reading and sending the bytes. Reusing buffers takes that away.
 *
 * `take` lends a buffer for one block's bytes; `release` gives it back once nothing reads it any more
 * (the socket has written it). A buffer released twice is returned once; a buffer never released is
 * simply collected, so a lost release costs an allocation, never a wrong byte.
 */
export class ReadBufferPool {
  private readonly free: ArrayBuffer[] = [];
  // Weak, so that a buffer lent to a response that went away (read ahead, never sent) is still collected.
  private readonly lent = new WeakSet<ArrayBufferLike>();
  private outstanding = 0;

  /** A buffer of exactly `length` bytes; pooled when it fits a pooled buffer. */
  take(length: number): Uint8Array {
    if (length > POOLED_BUFFER_BYTES) return Buffer.allocUnsafe(length);
    const memory = this.free.pop() ?? Buffer.allocUnsafeSlow(POOLED_BUFFER_BYTES).buffer;
    this.lent.add(memory);
    this.outstanding++;
    return Buffer.from(memory, 0, length);
  }

  /** Returns the buffer under `bytes` (any view of it) to the pool; bytes that are not lent are ignored. */
  release(bytes: Uint8Array): void {
    const memory = bytes.buffer;
    if (!this.lent.has(memory)) return;
    this.lent.delete(memory);
    this.outstanding--;
    if (this.free.length < MAX_FREE_BUFFERS) this.free.push(memory as ArrayBuffer);
  }

  /** Buffers lent and not given back, including any a response dropped (for tests). */
  get lentCount(): number {
    return this.outstanding;
  }

  /** Buffers ready to lend (for tests). */
  get freeCount(): number {
    return this.free.length;
  }
}
