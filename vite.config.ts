import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const renderer = fileURLToPath(new URL('./renderer', import.meta.url));
const outDir = fileURLToPath(new URL('./dist/renderer', import.meta.url));
const themeBootSource = fileURLToPath(new URL('./renderer/theme-boot.js', import.meta.url));

// The built page talks only to its own origin (the local service). The service's Content-Security-Policy
// header (main/http/routes/renderer-files.ts) is the stricter one, and a page obeys both: it narrows
// scripts to /assets/ and workers to /gateway-sw.js, /assets/ and blob: of the origin the page was asked
// at, which a build cannot name, and adds frame-ancestors, which a <meta> cannot set. Added at build time
// only: the dev server needs an inline script for React refresh.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "img-src 'self' data: blob:",
  "style-src 'self' 'unsafe-inline'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function contentSecurityPolicy(): Plugin {
  return {
    name: 'pinfold-csp',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' }],
  };
}

/**
 * renderer/theme-boot.js as a classic, blocking <script> at the top of <head>: it sets the chosen theme
 * before the first paint. The CSP forbids inline scripts, and a module script runs too late, so it is
 * emitted as its own file, named by its hash like every asset (assets are served as immutable).
 */
function themeBoot(): Plugin {
  const source = readFileSync(themeBootSource, 'utf8');
  const fileName = `assets/theme-boot-${createHash('sha256').update(source).digest('hex').slice(0, 10)}.js`;
  return {
    name: 'pinfold-theme-boot',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName, source });
    },
    transformIndexHtml: () => [{ tag: 'script', attrs: { src: `/${fileName}` }, injectTo: 'head-prepend' }],
  };
}

/**
 * The renderer: built to dist/renderer, which the service serves at `/` and at every page's URL
 * (`/pins`, `/sync/<id>`, ...), so asset paths are absolute (base '/').
 */
export default defineConfig({
  root: renderer,
  base: '/',
  plugins: [react(), themeBoot(), contentSecurityPolicy()],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
  },
  server: {
    // `vite` alone serves the UI for development; the API calls go to a running `pinfold serve`.
    proxy: { '/api': 'http://127.0.0.1:5080' },
  },
});
