import type { FastifyRequest } from 'fastify';
import { BadInputError, PayloadTooLargeError } from '../base/errors.js';

/**
 * The step-2 payload as a byte stream (contract section 4): the first part of a multipart form, which
 * must be named `file`, or else the raw body. It throws as soon as more than `size` bytes arrive (413)
 * and at the end when fewer did (400); the importer reading it stages blocks and commits only after
 * the stream ended cleanly, so either failure stores nothing.
 */
export async function* uploadPayload(request: FastifyRequest, size: number, counted: { bytes: number }): AsyncGenerator<Uint8Array> {
  let source: AsyncIterable<unknown>;
  if (request.isMultipart()) {
    const part = await request.file();
    if (!part) throw new BadInputError('multipart body has no file part');
    if (part.fieldname !== 'file') throw new BadInputError(`the file part must be named "file", not "${part.fieldname}"`);
    source = part.file;
  } else {
    source = request.raw;
  }
  for await (const chunk of source) {
    const bytes = chunk as Uint8Array;
    counted.bytes += bytes.byteLength;
    if (counted.bytes > size) throw new PayloadTooLargeError(`body is larger than size=${size}`);
    yield bytes;
  }
  if (counted.bytes < size) throw new BadInputError(`body has ${counted.bytes} bytes, shorter than size=${size}`);
}
