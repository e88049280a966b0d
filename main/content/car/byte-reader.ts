/**
 * Pull-based reader over an async byte stream with exact-length reads. Reads that fall inside one source
 * piece are zero-copy views (source pieces must not be reused by the producer: Node streams never do).
 */
export class ByteReader {
  private readonly iterator: AsyncIterator<unknown>;
  private pieces: Uint8Array[] = [];
  private head = 0;
  private buffered = 0;
  private done = false;
  /** Bytes handed out so far. */
  position = 0;

  /**
   * `allocate` makes the buffer for a read that spans source pieces (the only copying read); the CAR
   * importer passes shared memory for large reads so hash workers can verify them without a copy.
   */
  constructor(
    source: AsyncIterable<unknown> | Iterable<unknown>,
    private readonly allocate: (length: number) => Uint8Array = (length) => new Uint8Array(length),
  ) {
    this.iterator = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : toAsync(source)[Symbol.asyncIterator]();
  }

  /** Buffers at least `length` bytes; false when the stream ends first. */
  async fill(length: number): Promise<boolean> {
    while (this.buffered < length) {
      if (this.done) return false;
      const next = await this.iterator.next();
      if (next.done === true) {
        this.done = true;
        return false;
      }
      const value = next.value;
      if (!(value instanceof Uint8Array)) throw new TypeError('the stream must yield bytes');
      if (value.byteLength === 0) continue;
      this.pieces.push(value);
      this.buffered += value.byteLength;
    }
    return true;
  }

  /** True at the end of the stream (nothing buffered and nothing more to read). */
  async atEnd(): Promise<boolean> {
    return !(await this.fill(1));
  }

  /** Exactly `length` bytes, or undefined when the stream ends first. */
  async read(length: number): Promise<Uint8Array | undefined> {
    if (!(await this.fill(length))) return undefined;
    return this.take(length);
  }

  /** An unsigned LEB128 varint, or undefined at a clean end of stream; throws on a torn or oversized one. */
  async readVarint(): Promise<number | undefined> {
    let value = 0;
    let factor = 1;
    for (let i = 0; i < 8; i++) {
      if (!(await this.fill(1))) {
        if (i === 0) return undefined;
        throw new RangeError('truncated varint');
      }
      const byte = this.take(1)[0] as number;
      value += (byte & 0x7f) * factor;
      if ((byte & 0x80) === 0) return value;
      factor *= 128;
    }
    throw new RangeError('varint too long');
  }

  /** Discards `length` bytes; false when the stream ends first. */
  async skip(length: number): Promise<boolean> {
    let left = length;
    while (left > 0) {
      if (!(await this.fill(1))) return false;
      const step = Math.min(left, this.buffered);
      this.take(step);
      left -= step;
    }
    return true;
  }

  /** Reads and discards the rest of the stream. */
  async drain(): Promise<void> {
    this.pieces = [];
    this.buffered = 0;
    this.head = 0;
    while (!this.done) {
      const next = await this.iterator.next();
      if (next.done === true) this.done = true;
    }
  }

  private take(length: number): Uint8Array {
    const first = this.pieces[0] as Uint8Array;
    const inFirst = first.byteLength - this.head;
    let out: Uint8Array;
    if (inFirst >= length) {
      out = first.subarray(this.head, this.head + length);
      this.head += length;
      if (this.head === first.byteLength) {
        this.pieces.shift();
        this.head = 0;
      }
    } else {
      out = this.allocate(length);
      let filled = 0;
      while (filled < length) {
        const piece = this.pieces[0] as Uint8Array;
        const step = Math.min(length - filled, piece.byteLength - this.head);
        out.set(piece.subarray(this.head, this.head + step), filled);
        filled += step;
        this.head += step;
        if (this.head === piece.byteLength) {
          this.pieces.shift();
          this.head = 0;
        }
      }
    }
    this.buffered -= length;
    this.position += length;
    return out;
  }
}

async function* toAsync(source: Iterable<unknown>): AsyncGenerator<unknown> {
  yield* source;
}
