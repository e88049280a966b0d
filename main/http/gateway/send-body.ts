import { Readable } from 'node:stream';
import { RangeNotSatisfiableError } from '../../base/errors.js';
import { parseRange } from './headers.js';
import type { GatewayContext } from './types.js';

/** Stream chunks of at most this many bytes are buffered ahead of the socket. */
const HIGH_WATER_MARK = 64 * 1024;

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
