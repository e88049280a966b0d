import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The desktop preload, bundled on its own: sandboxed preloads run as CommonJS scripts with a
 * restricted `require` (electron only), so shared/ code is inlined and the output is one .cjs file.
 */
export default defineConfig({
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL('./dist/desktop', import.meta.url)),
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: false,
    lib: {
      entry: fileURLToPath(new URL('./main/desktop/preload/preload.ts', import.meta.url)),
      formats: ['cjs'],
      fileName: () => 'preload.cjs',
    },
    rolldownOptions: {
      external: ['electron'],
    },
  },
});
