import { BadInputError } from '../../base/errors.js';

export type ByteSource = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/**
 * Cuts a byte stream into `size`-byte chunks (the last one shorter), like ipfs-unixfs-importer's
 * fixed-size chunker, and yields one empty chunk for an empty stream. Every chunk is a fresh buffer the
 * caller may keep: source pieces are copied, never aliased, so a source may reuse its buffers.
 */
export async function* fixedChunks(source: ByteSource, size: number, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  let buffer: Buffer | undefined;
  let fill = 0;
  let emitted = false;
  for await (const piece of source as AsyncIterable<unknown>) {
    signal?.throwIfAborted();
    if (!(piece instanceof Uint8Array)) throw new BadInputError('content: the stream must yield bytes');
    let offset = 0;
    while (offset < piece.byteLength) {
      buffer ??= Buffer.allocUnsafeSlow(size);
      const take = Math.min(size - fill, piece.byteLength - offset);
      buffer.set(take === piece.byteLength ? piece : piece.subarray(offset, offset + take), fill);
      fill += take;
      offset += take;
      if (fill === size) {
        yield buffer;
        emitted = true;
        buffer = undefined;
        fill = 0;
      }
    }
  }
  if (fill > 0) yield Buffer.from((buffer as Buffer).subarray(0, fill));
  else if (!emitted) yield new Uint8Array(0);
}
