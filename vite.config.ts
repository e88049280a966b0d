import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const renderer = fileURLToPath(new URL('./renderer', import.meta.url));
const outDir = fileURLToPath(new URL('./dist/renderer', import.meta.url));

// The built page talks only to its own origin (the local service). Added at build time only: the dev
// server needs an inline script for React refresh.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function contentSecurityPolicy(): Plugin {
  return {
    name: 'pinfold-csp',
    apply: 'build',
    transformIndexHtml: () => [
      { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY }, injectTo: 'head' },
    ],
  };
}

/** The renderer: built to dist/renderer, which the service serves at `/` (relative asset paths via base './'). */
export default defineConfig({
  root: renderer,
  base: './',
  plugins: [react(), contentSecurityPolicy()],
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
