import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import { BadInputError, isAppError, PayloadTooLargeError, RequestTimeoutError } from '../base/errors.js';
import { readableChunks, type ChunkingSource, type ChunkMemory, type MinimumPace } from '../content/import/readable-chunks.js';

/**
 * How fast a step 2 must send (contract section 4): at least `minBytes` of its body, or the rest of it when
 * less remains, in every `windowMs` of reading; else 408.
 */
export interface StepTwoPace {
  windowMs: number;
  minBytes: number;
}

/** A step-2 payload as it is read: `bytes` received so far, checked against the declared `size`. */
export interface PayloadIntake {
  size: number;
  pace: StepTwoPace;
  bytes: number;
}

export function payloadIntake(size: number, pace: StepTwoPace): PayloadIntake {
  return { size, pace, bytes: 0 };
}

function tooLarge(size: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`body is larger than size=${size}`);
}

function tooShort(received: number, size: number): BadInputError {
  return new BadInputError(`body has ${received} bytes, shorter than size=${size}`);
}

function idleTimeout(idleMs: number): RequestTimeoutError {
  return new RequestTimeoutError(`upload body: nothing received for ${idleMs / 1000} s`);
}

function tooSlow(received: number, required: number, windowMs: number): RequestTimeoutError {
  if (received === 0) return idleTimeout(windowMs);
  return new RequestTimeoutError(`upload body too slow: ${received} bytes received in ${windowMs / 1000} s, at least ${required} required`);
}

/**
 * The pace a body of `size` bytes must keep, `received()` of it so far. Once the whole body is in, one
 * byte stands for the end of the body: a client that sent everything but never ends its body (chunked)
 * is cut off too.
 */
export function bodyPace(pace: StepTwoPace, size: number, received: () => number): MinimumPace {
  return {
    windowMs: pace.windowMs,
    minBytes: () => Math.max(1, Math.min(pace.minBytes, size - received())),
    error: (got, required) => tooSlow(got, required, pace.windowMs),
  };
}

/**
 * Refuses from the headers alone, before a byte is read, a body whose `Content-Length` cannot match the
 * declared size: longer (413) or shorter (400) for a raw body; shorter than the file alone for a form.
 * A chunked body is counted as it arrives instead.
 */
export function checkDeclaredLength(request: FastifyRequest, size: number): void {
  const header = request.headers['content-length'];
  if (header === undefined) return;
  const length = Number(header);
  if (!request.isMultipart() && length > size) throw tooLarge(size);
  if (length < size) throw tooShort(length, size);
}

/**
 * What the body stream itself failed with, as the client's fault: a broken form (no boundary, cut off in
 * the middle of a part) or a body that ended early is 400, never a 500. Our own errors keep their status.
 */
function asBodyError(error: unknown, multipart: boolean): unknown {
  if (isAppError(error)) return error;
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new BadInputError(multipart ? `multipart body is malformed: ${detail}` : `body ended before size bytes arrived: ${detail}`);
}

/** `promise`, or a 408 when it takes longer than `idleMs` (a form's headers trickled in, or never sent). */
async function withinIdle<T>(promise: Promise<T>, idleMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(idleTimeout(idleMs)), idleMs);
  });
  // A late failure of the abandoned promise must not go unhandled.
  promise.catch(() => undefined);
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

type Parts = AsyncIterator<Multipart>;

/** The first file part of a form, which must be named `file` (fields before it are skipped). */
async function firstFilePart(parts: Parts, idleMs: number): Promise<Readable> {
  for (;;) {
    const next = await withinIdle(parts.next(), idleMs);
    if (next.done === true) throw new BadInputError('multipart body has no file part');
    const part = next.value;
    if (part.type !== 'file') continue;
    if (part.fieldname !== 'file') throw new BadInputError(`the file part must be named "file", not "${part.fieldname}"`);
    return part.file;
  }
}

/**
 * Reads the form after the file part to its end, so that a form without its closing boundary is refused
 * (400) rather than taken for complete. Later parts are not part of the payload and are discarded.
 */
async function finishForm(parts: Parts, idleMs: number): Promise<void> {
  for (;;) {
    const next = await withinIdle(parts.next(), idleMs);
    if (next.done === true) return;
    if (next.value.type === 'file') next.value.file.resume();
  }
}

/**
 * The step-2 payload (contract section 4): the first file part of a multipart form, which must be named
 * `file`, or else the raw body, cut into the importer's chunks as it arrives. It fails as soon as more than
 * `size` bytes arrive (413), at the end when fewer did (400), when the form is malformed (400) and when the
 * client falls below the pace (408: nothing, or too little, in a window; a form's other parts must each
 * arrive within one window); the importer reading it stages blocks and commits only after the stream ended
 * cleanly, so every failure stores nothing.
 */
export function uploadPayload(request: FastifyRequest, intake: PayloadIntake): ChunkingSource {
  const { size } = intake;
  const idleMs = intake.pace.windowMs;
  return {
    async *chunks(chunkSize, memory, signal) {
      const multipart = request.isMultipart();
      try {
        let parts: Parts | undefined;
        let stream: Readable = request.raw;
        if (multipart) {
          parts = request.parts()[Symbol.asyncIterator]();
          stream = await firstFilePart(parts, idleMs);
        }
        const onPiece = (bytes: number): void => {
          intake.bytes += bytes;
          if (intake.bytes > size) throw tooLarge(size);
        };
        const pace = bodyPace(intake.pace, size, () => intake.bytes);
        yield* readableChunks(stream, chunkSize, memory, { signal, onPiece, pace });
        if (intake.bytes < size) throw tooShort(intake.bytes, size);
        if (parts) await finishForm(parts, idleMs);
      } catch (error) {
        // The importer's own abort is not the body's fault.
        if (signal?.aborted === true && error === signal.reason) throw error;
        throw asBodyError(error, multipart);
      }
    },
  };
}

/** Pieces of a parsed payload (CAR): big enough that the parser runs once per piece, not per socket read. */
const PIECE_BYTES = 1024 * 1024;

/** Fresh memory for every piece: a parser may keep views of what it was given. */
const FRESH_MEMORY: ChunkMemory = { allocate: (length) => Buffer.allocUnsafe(length), release: () => undefined };

/** The step-2 payload as a byte stream, with the same checks, for importers that parse it (CAR). */
export function uploadPayloadBytes(request: FastifyRequest, intake: PayloadIntake): AsyncIterable<Uint8Array> {
  return uploadPayload(request, intake).chunks(PIECE_BYTES, FRESH_MEMORY);
}

/** A DELETE step 2 has no payload: any body is over its size of 0 (413), by its Content-Length or as it arrives. */
export async function refuseAnyBody(request: FastifyRequest, pace: StepTwoPace): Promise<void> {
  const refused = (): PayloadTooLargeError => new PayloadTooLargeError('body is larger than size=0 (DELETE takes no body)');
  const header = request.headers['content-length'];
  if (header !== undefined && Number(header) > 0) throw refused();
  const onPiece = (bytes: number): void => {
    if (bytes > 0) throw refused();
  };
  try {
    // No byte is ever kept (the first one is refused), so no chunk memory is lent.
    for await (const chunk of readableChunks(request.raw, 1, FRESH_MEMORY, { onPiece, pace: bodyPace(pace, 0, () => 0) })) void chunk;
  } catch (error) {
    throw asBodyError(error, false);
  }
}
