import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { call, makeTempDir, startTestServer } from '../helpers/test-server.js';
import { runCli } from '../helpers/account-api.js';
import { expectReadable, pinAdd, served } from './gc-helpers.js';
import { MiB, randomData, stats, uploadCid } from './uploads-helpers.js';

/**
 * `pinfold gc --data DIR` with no server holding the folder: one cycle in this process, over the data
 * folder's own SQLite file and blocks. SQLite only (vitest.config.ts): with the metadata in PostgreSQL,
 * garbage collection runs inside the servers, one leader at a time among the instances sharing it.
 */
describe('pinfold gc --data DIR, in process', () => {
  it('without a server, runs one cycle in process over the data folder', async () => {
    const dataDir = await makeTempDir();
    try {
      let server = await startTestServer({ dataDir });
      const keep = randomData(MiB + 2);
      const drop = randomData(700);
      const unpin = randomData(800);
      const kept = await uploadCid(server, server.owner, keep);
      const dropped = await uploadCid(server, server.owner, drop);
      const unpinned = await uploadCid(server, server.owner, unpin);
      expect(await pinAdd(server, server.owner, kept)).toBe(200);
      expect(await pinAdd(server, server.owner, unpinned)).toBe(200);
      expect((await call(server, 'POST', '/api/v0/pin/rm', { key: server.owner, query: { arg: unpinned } })).status).toBe(200);
      const pinnedBefore = await stats(server, server.owner);
      await server.stop();

      // Within the default grace nothing is deleted, but the unpinning pin goes.
      const graced = await runCli(['gc', '--data', dataDir]);
      expect(graced.stderr).toBe('');
      expect(graced.code).toBe(0);
      expect(graced.stdout).toMatch(/in process.*1 pins removed, 0 blocks deleted/);
      const result = await runCli(['gc', '--data', dataDir, '--gc-grace', '0']);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/in process.*0 pins removed, 2 blocks deleted/);

      server = await startTestServer({ dataDir });
      try {
        await expectReadable(server, server.owner, kept, keep);
        expect(await served(server, server.owner, `/ipfs/${dropped}`)).toBeNull();
        expect(await served(server, server.owner, `/ipfs/${unpinned}`)).toBeNull();
        const after = await stats(server, server.owner);
        expect(after.pinned_count).toBe(pinnedBefore.pinned_count - 1);
        expect(after.pinned_bytes).toBe(pinnedBefore.pinned_bytes - 800);
      } finally {
        await server.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
