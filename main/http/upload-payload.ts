import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { BadInputError, PayloadTooLargeError } from '../base/errors.js';
import { readableChunks, type ChunkingSource, type ChunkMemory } from '../content/import/readable-chunks.js';

/**
 * The step-2 payload (contract section 4): the first part of a multipart form, which must be named `file`,
 * or else the raw body, cut into the importer's chunks as it arrives. It fails as soon as more than `size`
 * bytes arrive (413) and at the end when fewer did (400); the importer reading it stages blocks and commits
 * only after the stream ended cleanly, so either failure stores nothing.
 */
export function uploadPayload(request: FastifyRequest, size: number, counted: { bytes: number }): ChunkingSource {
  return {
    async *chunks(chunkSize, memory, signal) {
      let stream: Readable;
      if (request.isMultipart()) {
        const part = await request.file();
        if (!part) throw new BadInputError('multipart body has no file part');
        if (part.fieldname !== 'file') throw new BadInputError(`the file part must be named "file", not "${part.fieldname}"`);
        stream = part.file;
      } else {
        stream = request.raw;
      }
      const onPiece = (bytes: number): void => {
        counted.bytes += bytes;
        if (counted.bytes > size) throw new PayloadTooLargeError(`body is larger than size=${size}`);
      };
      yield* readableChunks(stream, chunkSize, memory, { signal, onPiece });
      if (counted.bytes < size) throw new BadInputError(`body has ${counted.bytes} bytes, shorter than size=${size}`);
    },
  };
}

/** Pieces of a parsed payload (CAR): big enough that the parser runs once per piece, not per socket read. */
const PIECE_BYTES = 1024 * 1024;

/** Fresh memory for every piece: a parser may keep views of what it was given. */
const FRESH_MEMORY: ChunkMemory = { allocate: (length) => Buffer.allocUnsafe(length), release: () => undefined };

/** The step-2 payload as a byte stream, with the same checks, for importers that parse it (CAR). */
export function uploadPayloadBytes(request: FastifyRequest, size: number, counted: { bytes: number }): AsyncIterable<Uint8Array> {
  return uploadPayload(request, size, counted).chunks(PIECE_BYTES, FRESH_MEMORY);
}
