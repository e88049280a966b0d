import type { ChunkMemory } from './readable-chunks.js';

/**
 * Cuts pieces of bytes, as they arrive, into `size`-byte chunks in memory the importer lends. No I/O: the
 * stream reader (readable-chunks.ts) hands it pieces and takes the chunks it made. A chunk taken belongs to
 * the taker; whatever it still holds it gives back on `releaseAll`.
 */
export class ChunkCutter {
  /** Whole chunks, oldest first, waiting to be taken. */
  readonly ready: Uint8Array[] = [];
  private buffer: Uint8Array | undefined;
  private fill = 0;

  constructor(
    private readonly size: number,
    private readonly memory: ChunkMemory,
  ) {}

  /** Copies a piece in: one copy per piece, or per chunk it spans. */
  cut(piece: Uint8Array): void {
    const { size } = this;
    let offset = 0;
    while (offset < piece.byteLength) {
      this.buffer ??= this.memory.allocate(size);
      const take = Math.min(size - this.fill, piece.byteLength - offset);
      this.buffer.set(take === piece.byteLength ? piece : piece.subarray(offset, offset + take), this.fill);
      this.fill += take;
      offset += take;
      if (this.fill === size) {
        this.ready.push(this.buffer);
        this.buffer = undefined;
        this.fill = 0;
      }
    }
  }

  /**
   * The short chunk left at the end, as an exact-size copy so that it does not pin a whole chunk of memory;
   * undefined when the bytes ended on a chunk's edge.
   */
  takeRest(): Uint8Array | undefined {
    if (this.buffer === undefined || this.fill === 0) return undefined;
    const last = this.memory.allocate(this.fill);
    last.set(this.buffer.subarray(0, this.fill));
    this.memory.release(this.buffer);
    this.buffer = undefined;
    this.fill = 0;
    return last;
  }

  /** Gives back every chunk not taken and the one being filled. */
  releaseAll(): void {
    for (const left of this.ready.splice(0)) this.memory.release(left);
    if (this.buffer !== undefined) this.memory.release(this.buffer);
    this.buffer = undefined;
    this.fill = 0;
  }
}
