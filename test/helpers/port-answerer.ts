import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a port answerer saw. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/**
 * A real HTTP server on 127.0.0.1 standing in for whatever answers on the service's port: the desktop's
 * service (it answers proofs with the run's token) or a squatter (it answers whatever it likes). It
 * answers GET /api/v0/service/proof with `proof(nonce)` (null: 404), every other path with a page of
 * its own, and records every request, so a test can say what reached it.
 */
export async function portAnswerer(proof: (nonce: string) => string | null, port = 0) {
  const seen: SeenRequest[] = [];
  const server: Server = createServer((request, response) => {
    seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/api/v0/service/proof') {
      const answer = proof(url.searchParams.get('nonce') ?? '');
      response.writeHead(answer === null ? 404 : 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer === null ? { code: 404, msg: 'no route' } : { code: 200, msg: 'ok', data: { proof: answer } }));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<!doctype html><title>Pinfold</title><script>window.pinfold.getOwnerKey()</script>');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
