import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { NotFoundError } from '../../base/errors.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

async function sendFile(reply: FastifyReply, root: string, relative: string): Promise<FastifyReply> {
  const path = normalize(join(root, relative));
  if (!path.startsWith(root + sep)) throw new NotFoundError('no such file');
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) throw new NotFoundError('no such file');
  // index.html must be re-fetched after an upgrade; hashed assets never change.
  const cache = relative === 'index.html' ? 'no-cache' : 'public, max-age=31536000, immutable';
  return reply
    .type(TYPES[extname(path)] ?? 'application/octet-stream')
    .header('Cache-Control', cache)
    .header('Content-Length', info.size)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'")
    .send(createReadStream(path));
}

/** The renderer (built by Vite into dist/renderer) at `/`, so any browser on the machine can use it. */
export function rendererRoutes(app: FastifyInstance, rendererDir: string): void {
  const root = normalize(rendererDir);
  const open = { config: { access: 'public' as const } };
  app.get('/', open, (_request, reply) => sendFile(reply, root, 'index.html'));
  app.get('/assets/*', open, (request, reply) => sendFile(reply, root, join('assets', (request.params as { '*': string })['*'])));
  app.get('/favicon.svg', open, (_request, reply) => sendFile(reply, root, 'favicon.svg'));
}
