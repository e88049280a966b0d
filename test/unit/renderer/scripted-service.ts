/**
 * A real HTTP server on port 0 for the renderer's API client tests: each test sets the next answer,
 * and the server records what the client sent (method, URL, headers, body).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { failureEnvelope, type FailureDetail } from '../../../main/http/error-status.js';
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

export interface ScriptedService {
  readonly url: string;
  seen: SeenRequest[];
  answer: ScriptedAnswer;
  /** Answers `data` in the success envelope. */
  answerData(data: unknown): void;
  /** Answers a list envelope. */
  answerList(items: unknown[], total?: number): void;
  /** Answers the failure envelope of `error` (its status, `msg`, and `param` or `limit`), as the service builds it. */
  answerError(error: ErrorCode, msg: string, detail?: FailureDetail): void;
  close(): Promise<void>;
}

export async function startScriptedService(): Promise<ScriptedService> {
  const service = {
    url: '',
    seen: [] as SeenRequest[],
    answer: { status: 200, body: '{"code":200,"msg":"ok"}' } as ScriptedAnswer,
    answerData(data: unknown) {
      this.answer = { status: 200, body: JSON.stringify({ code: 200, msg: 'ok', data }) };
    },
    answerList(items: unknown[], total = items.length) {
      this.answer = { status: 200, body: JSON.stringify({ code: 200, data: items, total }) };
    },
    answerError(error: ErrorCode, msg: string, detail?: FailureDetail) {
      const envelope = failureEnvelope(error, msg, detail);
      this.answer = { status: envelope.code, body: JSON.stringify(envelope) };
    },
    close: (): Promise<void> => Promise.resolve(),
  };
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      service.seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      response.writeHead(service.answer.status, { 'Content-Type': service.answer.contentType ?? 'application/json' });
      response.end(service.answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  service.close = () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
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
