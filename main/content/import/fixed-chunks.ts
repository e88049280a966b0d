import { BadInputError } from '../../base/errors.js';

export type ByteSource = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/**
 * Cuts a byte stream into `size`-byte chunks (the last one shorter), like ipfs-unixfs-importer's
 * fixed-size chunker, and yields one empty chunk for an empty stream. Chunks come from `allocate`
 * (source pieces are copied, never aliased, so a source may reuse its buffers); a yielded chunk belongs
 * to the caller, and a partly filled one left behind by a failure goes back through `release`.
 */
export async function* fixedChunks(
  source: ByteSource,
  size: number,
  signal?: AbortSignal,
  allocate: (length: number) => Uint8Array = (length) => Buffer.allocUnsafeSlow(length),
  release: (buffer: Uint8Array) => void = () => undefined,
): AsyncGenerator<Uint8Array> {
  let buffer: Uint8Array | undefined;
  let fill = 0;
  let emitted = false;
  try {
    for await (const piece of source as AsyncIterable<unknown>) {
      signal?.throwIfAborted();
      if (!(piece instanceof Uint8Array)) throw new BadInputError('content: the stream must yield bytes');
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
    if (fill > 0) {
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
