import { BadInputError } from '../../base/errors.js';

export type ByteSource = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

export interface ChunkOptions {
  signal?: AbortSignal;
  /** Memory for one chunk (default: fresh memory). */
  allocate?: (length: number) => Uint8Array;
  /** Takes back an allocated chunk that will not be yielded (after a failure). */
  release?: (buffer: Uint8Array) => void;
  /**
   * The source never reuses a buffer it has yielded, so a stream that is one short piece (a small
   * file read in one go) is yielded as it is, with no copy.
   */
  transfer?: boolean;
}

/**
 * Cuts a byte stream into `size`-byte chunks (the last one shorter), like ipfs-unixfs-importer's
 * fixed-size chunker, and yields one empty chunk for an empty stream. Chunks come from `allocate`
 * (source pieces are copied, never aliased, so a source may reuse its buffers, unless it says
 * `transfer`); a yielded chunk belongs to the caller, and a partly filled one left behind by a
 * failure goes back through `release`.
 */
export async function* fixedChunks(source: ByteSource, size: number, options: ChunkOptions = {}): AsyncGenerator<Uint8Array> {
  const { signal, transfer = false } = options;
  const allocate = options.allocate ?? ((length: number) => Buffer.allocUnsafeSlow(length));
  const release = options.release ?? (() => undefined);
  let buffer: Uint8Array | undefined;
  let fill = 0;
  let emitted = false;
  // transfer: a piece that may turn out to be the whole (last) chunk, not copied until more follows.
  let held: Uint8Array | undefined;
  try {
    for await (const piece of source as AsyncIterable<unknown>) {
      signal?.throwIfAborted();
      if (!(piece instanceof Uint8Array)) throw new BadInputError('content: the stream must yield bytes');
      if (held !== undefined) {
        const earlier = held;
        held = undefined;
        buffer = allocate(size);
        buffer.set(earlier, 0);
        fill = earlier.byteLength;
      }
      if (transfer && fill === 0 && piece.byteLength > 0 && piece.byteLength < size) {
        held = piece;
        continue;
      }
      let offset = 0;
      while (offset < piece.byteLength) {
        buffer ??= allocate(size);
        const take = Math.min(size - fill, piece.byteLength - offset);
        buffer.set(take === piece.byteLength ? piece : piece.subarray(offset, offset + take), fill);
        fill += take;
        offset += take;
        if (fill === size) {
          // Ownership passes to the caller before the yield, so a later failure cannot release it twice.
          const full = buffer;
          buffer = undefined;
          fill = 0;
          emitted = true;
          yield full;
        }
      }
    }
    if (held !== undefined) {
      const last = held;
      held = undefined;
      yield last;
    } else if (fill > 0) {
      // An exact-size copy, so a short file does not pin a whole chunk buffer.
      const last = allocate(fill);
      last.set((buffer as Uint8Array).subarray(0, fill));
      release(buffer as Uint8Array);
      buffer = undefined;
      yield last;
    } else if (!emitted) {
      yield new Uint8Array(0);
    }
  } finally {
    if (buffer !== undefined) release(buffer);
  }
}
