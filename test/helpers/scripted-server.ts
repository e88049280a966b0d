import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Every request so far, in arrival order. */
  readonly requests: SeenRequest[];
  /** Requests whose connection closed before the handler finished its answer. */
  readonly cancelled: string[];
  close(): Promise<void>;
}

export type ScriptedHandler = (request: IncomingMessage, response: ServerResponse, body: Buffer) => void | Promise<void>;

/**
 * A real HTTP server on a loopback port whose answers a test writes (a routing endpoint, a gateway that
 * lies, stalls or dies mid-answer). Closing it destroys open connections, so a stalled answer ends.
 */
export async function startScriptedServer(handler: ScriptedHandler): Promise<ScriptedServer> {
  const requests: SeenRequest[] = [];
  const cancelled: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    requests.push({ method: request.method ?? 'GET', url: request.url ?? '/', headers: request.headers });
    response.on('close', () => {
      if (!response.writableFinished) cancelled.push(request.url ?? '/');
    });
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      Promise.resolve(handler(request, response, Buffer.concat(chunks))).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500);
        response.end(String(error));
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    cancelled,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
