import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorEnvelope } from '../../shared/api-types.js';
import { ErrorCodes } from '../../shared/error-codes.js';
import { failureEnvelope } from './error-status.js';

/** The envelope Node's HTTP parser leaves to us when a request cannot even be read. */
export function clientErrorAnswer(code: string): ErrorEnvelope {
  if (code === 'HPE_HEADER_OVERFLOW') return failureEnvelope(ErrorCodes.headersTooLarge, 'request line and headers are larger than the server reads');
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return failureEnvelope(ErrorCodes.requestTimeout, 'request did not arrive in time');
  return failureEnvelope(ErrorCodes.badInput, 'malformed HTTP request');
}

/** The response in progress on a socket, as Node's own clientError fallback looks at it. */
type SocketWithResponse = Socket & { _httpMessage?: { headersSent?: boolean } | null };

/**
 * Fastify's clientErrorHandler: a request Node's parser refuses (oversized headers, a broken request line or
 * chunk framing, a timeout) gets the contract's envelope rather than Fastify's own JSON shape. There is no
 * request object yet, so the answer is written to the socket; not when a response is already under way on
 * it (the peer would read a second status line in the middle of a body), as Node does.
 */
export function answerClientError(error: Error & { code: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const inFlight = (socket as SocketWithResponse)._httpMessage;
  if (socket.writable && inFlight?.headersSent !== true) {
    const envelope = clientErrorAnswer(error.code);
    const status = envelope.code;
    const body = JSON.stringify(envelope);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
