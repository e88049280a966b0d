import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../base/errors.js';
import { AssetParams } from '../input/renderer-input.js';
import { requestInput } from '../input/request-input.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** Where the built assets are served: the one folder the UI's scripts may come from. */
const ASSETS = '/assets/';

/**
 * A source for `path` on the page's own origin (`http://127.0.0.1:5080/assets/`), built from the request,
 * whose Host the guard has already held to a loopback name or the `--host` given. CSP has no spelling for
 * an IPv6 literal (Chromium ignores `http://[::1]:5080/assets/`, which would block every script), so
 * there it falls back to the whole origin, `'self'`.
 */
function sourceOnOwnOrigin(protocol: string, host: string, path: string): string {
  return /^[a-z0-9.-]+(?::\d{1,5})?$/i.test(host) ? `${protocol}://${host}${path}` : "'self'";
}

/**
 * The UI's own policy, for the origin the page was asked at. Scripts only from the built assets' folder:
 * `'self'` would take the gateway on the same origin too, where any CID is served as JavaScript with
 * `?filename=x.js` (issue 22, item 4), and a path in a source is the only way to tell them apart (the
 * assets are never redirected, which would lift the path check). Workers only from the gateway worker's
 * own address, the assets (the Files page builds CARs in a Web Worker) and blob:. Connections only to
 * this origin (the local service), never framed (clickjacking), no plugins, no <base> or form targets.
 */
export function uiContentSecurityPolicy(protocol: string, host: string): string {
  return [
    "default-src 'self'",
    `script-src ${sourceOnOwnOrigin(protocol, host, ASSETS)}`,
    `worker-src ${sourceOnOwnOrigin(protocol, host, `/${GATEWAY_WORKER}`)} ${sourceOnOwnOrigin(protocol, host, ASSETS)} blob:`,
    "connect-src 'self'",
    "img-src 'self' data: blob:",
    "style-src 'self' 'unsafe-inline'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * The window's pages (issue 12). Each answers the app's index.html, so a reload, a bookmark or a link typed
 * into the address bar opens the page the router shows for it; `/sync/<id>` is one folder's detail page,
 * `/view?path=/ipfs/…` one piece of content shown inside the window.
 */
export const APP_PAGES = ['/signin', '/overview', '/files', '/pins', '/names', '/keys', '/sync', '/sync/:id', '/partners', '/settings', '/view'] as const;

/**
 * The service worker that lets the window open content from the gateway with its key (renderer/public/
 * gateway-sw.js): at the root, since a worker controls only paths under its own, and registered for
 * /ipfs/ and /ipns/ only.
 */
export const GATEWAY_WORKER = 'gateway-sw.js';

/** Fetched again on every use: index.html after an upgrade, the worker so an upgrade reaches it at once. */
const REVALIDATED = new Set(['index.html', GATEWAY_WORKER]);

async function sendFile(request: FastifyRequest, reply: FastifyReply, root: string, relative: string): Promise<FastifyReply> {
  const path = normalize(join(root, relative));
  if (!path.startsWith(root + sep)) throw new NotFoundError('no such file');
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) throw new NotFoundError('no such file');
  // Hashed assets never change.
  const cache = REVALIDATED.has(relative) ? 'no-cache' : 'public, max-age=31536000, immutable';
  // `Referrer-Policy: same-origin`: this origin's pages learn which page opened them (the gateway worker
  // tells the window's own navigations by it, issue 22, item 3); other sites learn nothing.
  return reply
    .type(TYPES[extname(path)] ?? 'application/octet-stream')
    .header('Cache-Control', cache)
    .header('Content-Length', info.size)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'same-origin')
    .header('Content-Security-Policy', uiContentSecurityPolicy(request.protocol, request.host))
    .send(createReadStream(path));
}

/**
 * The renderer (built by Vite into dist/renderer) at `/` and at every page's URL, so any browser on the
 * machine can use it. Public: the page holds no secrets; everything it shows comes from authenticated calls.
 */
export function rendererRoutes(app: FastifyInstance, rendererDir: string): void {
  const root = normalize(rendererDir);
  const open = { config: { access: 'public' as const } };
  const index = (request: FastifyRequest, reply: FastifyReply) => sendFile(request, reply, root, 'index.html');
  app.get('/', open, index);
  for (const page of APP_PAGES) {
    app.get(page, open, index);
    app.get(`${page}/`, open, index);
  }
  app.get('/assets/*', open, (request, reply) => sendFile(request, reply, root, join('assets', requestInput(AssetParams, request.params)['*'])));
  app.get('/favicon.svg', open, (request, reply) => sendFile(request, reply, root, 'favicon.svg'));
  app.get(`/${GATEWAY_WORKER}`, open, (request, reply) => sendFile(request, reply, root, GATEWAY_WORKER));
}
