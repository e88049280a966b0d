import { defineConfig } from 'vitest/config';

/**
 * The Electron smoke test, apart from the suite `npm test` runs: it needs Electron's binary and a display
 * (xvfb on Linux), which only the release workflow has. Run it with
 * `npx vitest run --config test/electron/vitest.config.ts` after `npm run build`.
 */
export default defineConfig({
  test: {
    include: ['test/electron/**/*.test.ts'],
    environment: 'node',
    testTimeout: 240_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
