import type { ServerResponse } from 'node:http';
import { RangeNotSatisfiableError } from '../../base/errors.js';
import { ReadBufferPool } from '../../content/read/buffer-pool.js';
import { mapError } from '../error-status.js';
import { parseRange } from './byte-range.js';
import type { GatewayContext } from './types.js';

/** Read buffers shared by every streamed response of this process (they hold no request's state). */
export const readBuffers = new ReadBufferPool();

/**
 * Bodies up to this size are gathered and sent as one buffer: a stream costs several times more per
 * response than the bytes themselves for small files, and this bound keeps memory per request small.
 */
const SMALL_BODY_BYTES = 256 * 1024;

/**
 * Headers that describe a body; a failure before the body was sent must not keep them (an error is not
 * immutable). The content-isolation headers stay: they belong to every gateway response.
 */
const BODY_HEADERS = ['etag', 'cache-control', 'content-disposition', 'content-type', 'content-length', 'accept-ranges', 'content-range'];

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

/** Makes a body: bytes at hand, or a stream that may read blocks into `buffers` (released once sent). */
export type BodySource = (buffers: ReadBufferPool) => AsyncIterable<Uint8Array> | Uint8Array;

/**
 * Sends a body with egress accounting: `beforeBody` once with the length (0 when unknown) before anything is
 * sent, then `onBodyBytes` for each chunk as it is handed to the socket. HEAD gets the same headers and no
 * body; a source is then never started, so nothing is read from the store.
 */
export function sendBody(ctx: GatewayContext, status: number, source: BodySource, length?: number): void {
  const admitted = ctx.deps.beforeBody?.(ctx.request, length ?? 0);
  if (admitted instanceof Promise) {
    // The handler sees the reply unsent and returns it, so Fastify waits for the body.
    admitted.then(
      () => sendAdmitted(ctx, status, source, length),
      (error: unknown) => failBeforeBody(ctx, error),
    );
    return;
  }
  sendAdmitted(ctx, status, source, length);
}

function sendAdmitted(ctx: GatewayContext, status: number, source: BodySource, length: number | undefined): void {
  const { reply, request, deps } = ctx;
  reply.code(status);
  if (length !== undefined) reply.header('content-length', length);
  if (ctx.head) {
    void reply.send();
    return;
  }
  const body = source(readBuffers);
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
      (error: unknown) => failBeforeBody(ctx, error),
    );
    return;
  }
  void pump(ctx, body[Symbol.asyncIterator]());
}

/** A failure before any byte of the body: the error envelope, without the headers that described the body. */
function failBeforeBody(ctx: GatewayContext, error: unknown): void {
  for (const name of BODY_HEADERS) ctx.reply.removeHeader(name);
  void ctx.reply.send(error);
}

/**
 * Writes a streamed body to the socket itself rather than through a Readable, so that it knows when the
 * socket is done with each chunk and can give its buffer back to the pool. The first chunk is read before
 * the headers go out, so a block missing at the start is still an error answer; a failure later can only
 * cut the response short (its Content-Length, or the missing last chunk, tells the client) and be logged.
 */
async function pump(ctx: GatewayContext, chunks: AsyncIterator<Uint8Array>): Promise<void> {
  const { reply, request, deps } = ctx;
  let next: IteratorResult<Uint8Array>;
  try {
    next = await chunks.next();
  } catch (error) {
    failBeforeBody(ctx, error);
    return;
  }
  reply.hijack();
  const res = reply.raw;
  let sent = 0;
  try {
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value);
    res.writeHead(reply.statusCode);
    while (next.done !== true) {
      const chunk = next.value;
      if (chunk.byteLength > 0) {
        deps.onBodyBytes?.(request, chunk.byteLength);
        sent += chunk.byteLength;
        const more = res.write(chunk, () => readBuffers.release(chunk));
        if (!more && !(await drained(res))) return;
      }
      next = await chunks.next();
    }
    res.end();
  } catch (error) {
    // Headers are out: all that is left is to cut the response short, so that the client sees it broke
    // (no last chunk, or fewer bytes than Content-Length), and to say why here, where someone can read it.
    logCutShort(ctx, error, sent);
    cutShort(res);
  } finally {
    await chunks.return?.();
  }
}

/**
 * Logs a response cut short after its headers were sent: method, path and status, never the query string
 * (an upload address or a signature may be in it) nor any header. A read aborted because the client left is
 * no failure and is not logged; a fault of ours (500) is an error, anything else (the content cannot be
 * served whole: a block missing mid-file, a TAR entry that would leave the archive) a warning.
 */
function logCutShort(ctx: GatewayContext, error: unknown, bytesSent: number): void {
  if (ctx.signal.aborted) return;
  const fields = { method: ctx.request.method, path: ctx.target.rawPath, status: ctx.reply.statusCode, bytesSent, error };
  const message = 'gateway response cut short after its headers were sent';
  if (mapError(error).fault) ctx.deps.logger.error(message, fields);
  else ctx.deps.logger.warn(message, fields);
}

/**
 * Ends the connection without ending the response: no last chunk (or fewer bytes than Content-Length) tells
 * the client the body is incomplete. The socket is ended once what was written is out, not destroyed at once:
 * the headers and first chunks may still sit in its corked buffer, and dropping them answers nothing at all.
 */
function cutShort(res: ServerResponse): void {
  if (res.socket === null) res.destroy();
  else res.socket.destroySoon();
}

/** Resolves true when the socket wants more, false when the response closed first. */
function drained(res: ServerResponse): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onDrain = (): void => settle(true);
    const onClose = (): void => settle(false);
    function settle(more: boolean): void {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(more);
    }
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

/**
 * Sends `size` bytes of addressable content honouring a `Range` (see parseRange): 206 + Content-Range, or 416
 * (thrown, with `Content-Range: bytes * /size` already set) when no range of the header selects a byte.
 */
export function sendRanged(
  ctx: GatewayContext,
  size: number,
  read: (offset: number, length: number, buffers: ReadBufferPool) => AsyncIterable<Uint8Array> | Uint8Array,
): void {
  const { reply } = ctx;
  reply.header('accept-ranges', 'bytes');
  const range = parseRange(ctx.request.headers.range, size);
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${size}`);
    throw new RangeNotSatisfiableError(`range: not satisfiable for ${size} bytes`, size);
  }
  if (range === undefined) {
    sendBody(ctx, 200, (buffers) => read(0, size, buffers), size);
    return;
  }
  const length = range.end - range.start + 1;
  reply.header('content-range', `bytes ${range.start}-${range.end}/${size}`);
  sendBody(ctx, 206, (buffers) => read(range.start, length, buffers), length);
}
