import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { dataFolderReleased, launchArgs, launchEnv, syncFolders } from '../electron/smoke-helpers.js';
import { until } from '../helpers/until.js';
import { makeTempDir, startTestServer } from '../helpers/test-server.js';
import { put } from './sync-helpers.js';

/** The Node side of the Electron smoke test (test/electron/), on a real service: everything but the launch. */
describe('electron smoke test helpers', () => {
  it('launches the app folder on a temp data folder and any free port, with the smoke hook and no updates', () => {
    expect(launchArgs('/repo', '/tmp/data')).toEqual(['/repo', '--data', '/tmp/data', '--port', '0']);
    const env = launchEnv({ PATH: '/usr/bin', ELECTRON_RUN_AS_NODE: '1', NODE_OPTIONS: '--inspect', DISPLAY: ':99', EMPTY: undefined });
    expect(env).toEqual({ PATH: '/usr/bin', DISPLAY: ':99', PINFOLD_SMOKE_TEST: '1', PINFOLD_UPDATES: 'off' });
  });

  it('reads the sync folders as the owner, and tells a clean stop from a running service', async () => {
    const dataDir = await makeTempDir('pinfold-smoke-helpers-');
    const folder = await makeTempDir('pinfold-smoke-helpers-folder-');
    try {
      const server = await startTestServer({ dataDir });
      expect(await dataFolderReleased(dataDir)).toBe(false);
      await put(folder, 'a.txt', 'alpha');
      const added = await fetch(`${server.url}/api/v0/sync/add?ts=${Math.floor(Date.now() / 1000)}`, {
        method: 'POST',
        headers: { 'X-Access-Key': server.owner.access_key, 'X-Access-Secret': server.owner.access_secret },
        body: JSON.stringify({ path: folder }),
      });
      expect(added.status).toBe(200);
      const row = await until('the folder listed', async () => (await syncFolders(server.url, server.owner)).find((r) => r.path === folder));
      expect(row.root).not.toBe('');
      await expect(syncFolders(server.url, { access_key: server.owner.access_key, access_secret: 'x'.repeat(64) })).rejects.toThrow(/answered 401/);
      await server.stop();
      expect(await dataFolderReleased(dataDir)).toBe(true);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('until: answers the first value, and names what it waited for at the deadline', async () => {
    let calls = 0;
    await expect(until('three calls', () => (++calls >= 3 ? calls : undefined))).resolves.toBe(3);
    await expect(until('nothing', () => undefined, 50)).rejects.toThrow('timed out waiting for nothing');
  });
});
