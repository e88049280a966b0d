import { Readable } from 'node:stream';
import { RangeNotSatisfiableError } from '../../base/errors.js';
import { parseRange } from './headers.js';
import type { GatewayContext } from './types.js';

/** Stream chunks of at most this many bytes are buffered ahead of the socket. */
const HIGH_WATER_MARK = 1024 * 1024;

/**
 * Bodies up to this size are gathered and sent as one buffer: a stream costs several times more per
 * response than the bytes themselves for small files, and this bound keeps memory per request small.
 */
const SMALL_BODY_BYTES = 256 * 1024;

/** Headers that describe a body; a failure before the body was sent must not keep them (an error is not immutable). */
const BODY_HEADERS = ['etag', 'cache-control', 'content-disposition', 'content-type', 'content-length', 'accept-ranges', 'content-range', 'x-content-type-options'];

/** Reads a body of known length into one buffer; a body of any other length is an error (a broken DAG). */
export async function gather(body: AsyncIterable<Uint8Array>, length: number): Promise<Buffer> {
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  for await (const chunk of body) {
    if (at + chunk.byteLength > length) throw new Error('content is longer than its declared size');
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  if (at !== length) throw new Error('content is shorter than its declared size');
  return out;
}

/**
 * Sends a body with egress accounting: `beforeBody` once with the length (0 when unknown) before anything is
 * sent, then `onBodyBytes` for each chunk as the response pulls it. HEAD gets the same headers and no body;
 * a source is then never started, so nothing is read from the store.
 */
export function sendBody(
  ctx: GatewayContext,
  status: number,
  source: () => AsyncIterable<Uint8Array> | Uint8Array,
  length?: number,
): void {
  const { reply, request, deps } = ctx;
  deps.beforeBody?.(request, length ?? 0);
  reply.code(status);
  if (length !== undefined) reply.header('content-length', length);
  if (ctx.head) {
    void reply.send();
    return;
  }
  const body = source();
  if (body instanceof Uint8Array) {
    deps.onBodyBytes?.(request, body.byteLength);
    void reply.send(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
    return;
  }
  if (length !== undefined && length <= SMALL_BODY_BYTES) {
    gather(body, length).then(
      (buffer) => {
        deps.onBodyBytes?.(request, buffer.byteLength);
        void reply.send(buffer);
      },
      (error: unknown) => {
        for (const name of BODY_HEADERS) reply.removeHeader(name);
        void reply.send(error);
      },
    );
    return;
  }
  const onBytes = deps.onBodyBytes;
  async function* counted(): AsyncGenerator<Uint8Array> {
    for await (const chunk of body as AsyncIterable<Uint8Array>) {
      if (chunk.byteLength === 0) continue;
      onBytes?.(request, chunk.byteLength);
      yield chunk;
    }
  }
  void reply.send(Readable.from(counted(), { objectMode: false, highWaterMark: HIGH_WATER_MARK }));
}

/**
 * Sends `size` bytes of addressable content honouring a single `Range`: 206 + Content-Range, or 416 (thrown,
 * with `Content-Range: bytes * /size` already set) when the range starts past the end.
 */
export function sendRanged(
  ctx: GatewayContext,
  size: number,
  read: (offset: number, length: number) => AsyncIterable<Uint8Array> | Uint8Array,
): void {
  const { reply } = ctx;
  reply.header('accept-ranges', 'bytes');
  const range = parseRange(ctx.request.headers.range, size);
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${size}`);
    throw new RangeNotSatisfiableError(`range: not satisfiable for ${size} bytes`, size);
  }
  if (range === undefined) {
    sendBody(ctx, 200, () => read(0, size), size);
    return;
  }
  const length = range.end - range.start + 1;
  reply.header('content-range', `bytes ${range.start}-${range.end}/${size}`);
  sendBody(ctx, 206, () => read(range.start, length), length);
}
