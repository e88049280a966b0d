import { defineConfig } from 'vitest/config';

/** Ends the file's PostgreSQL when the suite runs on it (test/helpers/suite-database.ts). */
const SUITE_DATABASE_SETUP = 'test/helpers/suite-database-setup.ts';

/**
 * The integration files that also run on the scale-out engines (`integration-scale-out`, issue 16's "the
 * shared integration suite runs against both"): metadata on PostgreSQL, blocks in a Ceph RGW bucket.
 * Every API behaviour file; left out, by design:
 * - sync-*, follow-*: sync and followed folders are refused with 409 in the PostgreSQL mode (a desktop,
 *   single-instance feature); sync-watcher, sync-runner and sync-service run the sync engine on a SQLite
 *   file of their own, whatever the engines;
 * - keychain-*, secrets-*, desktop-*, electron-*, sign-in-cli: the desktop's keychain and shell, SQLite only;
 * - engine-*, repositories/, postgres-*, s3-*, multi-instance: they start their own engines (PostgreSQL,
 *   Ceph RGW) and run on them already;
 * - serve-process, service-process, gc-kill, psa-compliance, network-fetch-serve: `pinfold serve` processes on
 *   their data folder's SQLite (the PostgreSQL serve process is postgres-serve's and the multi-instance tests';
 *   the PSA on the scale-out engines is psa.test.ts's, the fetch itself runs on every engine in network-fetch);
 * - gc-in-process: `pinfold gc` without a server opens the data folder's SQLite file; with PostgreSQL,
 *   garbage collection runs in the servers (one leader among the instances);
 * - deep-blocks, unreadable-blocks: they plant blocks straight into the data folder's own pack files
 *   (test/helpers/unreadable-blocks.ts), which a server on a bucket never reads; what they test (the
 *   content layer meeting a block it cannot decode) is the same code on every engine;
 * - uploads-space: it measures the data folder's pack files; the bucket's side (an aborted upload's
 *   objects deleted) is s3-blockstore's;
 * - lean-start: what an embedded service (SQLite, packs) leaves unloaded; it starts its own.
 */
const NOT_ON_SCALE_OUT = [
  'test/integration/sync-*.test.ts',
  'test/integration/follow-*.test.ts',
  'test/integration/keychain-*.test.ts',
  'test/integration/secrets-*.test.ts',
  'test/integration/desktop-*.test.ts',
  'test/integration/electron-*.test.ts',
  'test/integration/sign-in-cli.test.ts',
  'test/integration/engine-*.test.ts',
  'test/integration/repositories/**',
  'test/integration/postgres-*.test.ts',
  'test/integration/s3-*.test.ts',
  'test/integration/multi-instance.test.ts',
  'test/integration/serve-process.test.ts',
  'test/integration/service-process.test.ts',
  'test/integration/gc-kill.test.ts',
  'test/integration/psa-compliance.test.ts',
  'test/integration/network-fetch-serve.test.ts',
  'test/integration/lean-start.test.ts',
  'test/integration/gc-in-process.test.ts',
  'test/integration/deep-blocks.test.ts',
  'test/integration/unreadable-blocks.test.ts',
  'test/integration/uploads-space.test.ts',
];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          // *.test.tsx: the pages' component tests, each in jsdom (`// @vitest-environment jsdom`).
          include: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // PINFOLD_TEST_DB=postgres runs this project on PostgreSQL too (the project below is the list CI runs).
          setupFiles: process.env['PINFOLD_TEST_DB'] === 'postgres' ? [SUITE_DATABASE_SETUP] : [],
        },
      },
      {
        test: {
          name: 'integration-scale-out',
          include: ['test/integration/**/*.test.ts'],
          exclude: NOT_ON_SCALE_OUT,
          environment: 'node',
          // A CAR of 30,000 blocks (folders-import) costs a PostgreSQL round trip per block on a bucket.
          testTimeout: 300_000,
          // Two files run at once here (scripts/test.ts): a file's seed (100,000 pins in pins-list) shares the cores.
          hookTimeout: 300_000,
          env: { PINFOLD_TEST_DB: 'postgres', PINFOLD_TEST_BLOCKS: 's3' },
          setupFiles: [SUITE_DATABASE_SETUP],
          globalSetup: ['test/helpers/suite-blocks-global.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
