import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { NotFoundError } from '../../../../main/base/errors.js';
import { silentLogger, type Logger } from '../../../../main/base/logger.js';
import { gatewayRoutes, type GatewayDeps, type ResolvedName } from '../../../../main/http/gateway/index.js';
import { isolateContentResponse } from '../../../../main/http/content-isolation.js';
import { mapError } from '../../../../main/http/error-status.js';
import type { ReadBlockstore } from '../../../../main/content/read/blocks.js';

export interface Harness {
  app: FastifyInstance;
  port: number;
  get(path: string, headers?: Record<string, string>, method?: string): Promise<RawResponse>;
  close(): Promise<void>;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
}

export interface HarnessOptions {
  names?: Record<string, Omit<ResolvedName, 'key'>>;
  /** Defaults to a logger that writes nothing. */
  logger?: Logger;
  beforeBody?: GatewayDeps['beforeBody'];
  onBodyBytes?: GatewayDeps['onBodyBytes'];
  foreignBlockstore?: ReadBlockstore;
}

/** A real Fastify server on port 0 with the gateway and the lead's error→status table. */
export async function startGateway(blockstore: ReadBlockstore, options: HarnessOptions = {}): Promise<Harness> {
  const app = Fastify({ logger: false, routerOptions: { maxParamLength: 4096 }, forceCloseConnections: true });
  // As the server does: the content-isolation headers go on before anything can answer.
  app.addHook('onRequest', async (request, reply) => isolateContentResponse(request, reply, request.routeOptions.config.access));
  app.setErrorHandler((error, _request, reply) => {
    const mapped = mapError(error);
    if (reply.sent) return;
    void reply.code(mapped.status).type('application/json').send(mapped.envelope);
  });
  const names = options.names ?? {};
  gatewayRoutes(app, {
    blockstore,
    logger: options.logger ?? silentLogger,
    resolveName: async (name) => {
      const found = names[name];
      if (found === undefined) throw new NotFoundError(`name: ${name} is unknown`);
      return { ...found, key: [found.cid.toString(), ...found.path].join('/') };
    },
    beforeBody: options.beforeBody,
    onBodyBytes: options.onBodyBytes,
    ...(options.foreignBlockstore ? { foreignBlockstore: options.foreignBlockstore } : {}),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  return {
    app,
    port,
    get: (path, headers = {}, method = 'GET') => rawRequest(port, path, headers, method),
    close: () => app.close(),
  };
}

/** node:http so the path goes out byte for byte (fetch would normalise "..", "%2F" and the like). */
export function rawRequest(port: number, path: string, headers: Record<string, string>, method: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

export interface StreamOutcome extends RawResponse {
  /** False when the response was cut short: the connection closed before the body ended. */
  complete: boolean;
}

/** Like rawRequest, but a body cut short resolves (with what arrived) instead of failing. */
export function requestOutcome(port: number, path: string, headers: Record<string, string> = {}): Promise<StreamOutcome> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      const settle = (complete: boolean): void => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8'), complete });
      };
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => settle(true));
      res.on('aborted', () => settle(false));
      res.on('error', () => settle(false));
    });
    req.on('error', reject);
    req.end();
  });
}
