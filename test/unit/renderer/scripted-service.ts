/**
 * A real HTTP server on port 0 for the renderer's tests: each test sets the next answer (for every path,
 * or per path with `route`), and the server records what the client sent (method, URL, headers, body).
 * A routed answer may be a function, whose promise the test holds to keep a request waiting (a page's
 * loading state); `GET /api/v0/events` can be served as a live event stream the test writes to.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { failureEnvelope, type FailureDetail } from '../../../main/http/error-status.js';
import type { ServiceEventName, ServiceEvents } from '../../../shared/api-types.js';
import type { ErrorCode } from '../../../shared/error-codes.js';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ScriptedAnswer {
  status: number;
  body: string;
  contentType?: string;
}

/** An answer, or what makes one per request (a promise holds the request until it settles). */
export type RoutedAnswer = ScriptedAnswer | ((request: SeenRequest) => ScriptedAnswer | Promise<ScriptedAnswer>);

export interface ScriptedService {
  readonly url: string;
  seen: SeenRequest[];
  /** What every request without a route gets. */
  answer: ScriptedAnswer;
  /** Answers `data` in the success envelope. */
  answerData(data: unknown): void;
  /** Answers a list envelope. */
  answerList(items: unknown[], total?: number): void;
  /** Answers the failure envelope of `error` (its status, `msg`, and `param` or `limit`), as the service builds it. */
  answerError(error: ErrorCode, msg: string, detail?: FailureDetail): void;
  /** `METHOD /path` (any query) gets this answer from now on, in place of `answer`. */
  route(request: string, answer: RoutedAnswer): void;
  /** `GET /api/v0/events` is answered with an event stream that stays open; `sendEvent` writes to it. */
  serveEvents(): void;
  /** Writes one event to every open event stream; resolves once at least one is open to write to. */
  sendEvent<T extends ServiceEventName>(event: T, payload: ServiceEvents[T]): Promise<void>;
  close(): Promise<void>;
}

export function dataAnswer(data: unknown): ScriptedAnswer {
  return { status: 200, body: JSON.stringify({ code: 200, msg: 'ok', data }) };
}

export function listAnswer(items: unknown[], total = items.length): ScriptedAnswer {
  return { status: 200, body: JSON.stringify({ code: 200, data: items, total }) };
}

export function errorAnswer(error: ErrorCode, msg: string, detail?: FailureDetail): ScriptedAnswer {
  const envelope = failureEnvelope(error, msg, detail);
  return { status: envelope.code, body: JSON.stringify(envelope) };
}

const EVENTS_PATH = 'GET /api/v0/events';
const STREAM_WAIT_MS = 5000;

export async function startScriptedService(): Promise<ScriptedService> {
  const routes = new Map<string, RoutedAnswer>();
  const streams = new Set<ServerResponse>();
  const streamOpened = new Set<() => void>();
  let serveStreams = false;
  const service = {
    url: '',
    seen: [] as SeenRequest[],
    answer: { status: 200, body: '{"code":200,"msg":"ok"}' } as ScriptedAnswer,
    answerData(data: unknown) {
      this.answer = dataAnswer(data);
    },
    answerList(items: unknown[], total = items.length) {
      this.answer = listAnswer(items, total);
    },
    answerError(error: ErrorCode, msg: string, detail?: FailureDetail) {
      this.answer = errorAnswer(error, msg, detail);
    },
    route(request: string, answer: RoutedAnswer) {
      routes.set(request, answer);
    },
    serveEvents() {
      routes.delete(EVENTS_PATH);
      serveStreams = true;
    },
    async sendEvent<T extends ServiceEventName>(event: T, payload: ServiceEvents[T]) {
      if (streams.size === 0) await openedStream();
      for (const stream of streams) stream.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`);
    },
    close: (): Promise<void> => Promise.resolve(),
  };

  const openedStream = () =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        streamOpened.delete(opened);
        reject(new Error(`no event stream was opened within ${STREAM_WAIT_MS} ms`));
      }, STREAM_WAIT_MS);
      const opened = () => {
        clearTimeout(timer);
        streamOpened.delete(opened);
        resolve();
      };
      streamOpened.add(opened);
    });

  const openStream = (response: ServerResponse) => {
    response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
    response.write('retry: 3000\n\n');
    streams.add(response);
    response.on('close', () => streams.delete(response));
    for (const opened of [...streamOpened]) opened();
  };

  const answerOf = async (seen: SeenRequest): Promise<ScriptedAnswer> => {
    const routed = routes.get(`${seen.method} ${new URL(seen.url, 'http://x').pathname}`);
    if (routed === undefined) return service.answer;
    return typeof routed === 'function' ? routed(seen) : routed;
  };

  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const seen = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
      service.seen.push(seen);
      if (serveStreams && `${seen.method} ${new URL(seen.url, 'http://x').pathname}` === EVENTS_PATH) return openStream(response);
      void answerOf(seen).then((answer) => {
        if (response.destroyed) return;
        response.writeHead(answer.status, { 'Content-Type': answer.contentType ?? 'application/json' });
        response.end(answer.body);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  service.close = () =>
    new Promise<void>((resolve, reject) => {
      for (const stream of streams) stream.end();
      server.close((error) => (error ? reject(error) : resolve()));
      // A held answer or a client's keep-alive socket would keep the server open.
      server.closeAllConnections();
    });
  return service;
}

/** An address where nothing listens (a port that was just free). */
export async function unreachableUrl(): Promise<string> {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
