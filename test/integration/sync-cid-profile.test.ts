import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/test-server.js';
import { bytesOf, KUBO_LEGACY } from './cid-profile-helpers.js';
import { converged, put, referenceRoot, syncAdd } from './sync-helpers.js';

/**
 * Sync folders under `--cid-profile unixfs-v0-2015` (contract section 5): their roots are the ones Kubo's
 * legacy defaults give the same tree. Apart from cid-profile.test.ts because sync folders are a desktop,
 * single-instance feature, refused on PostgreSQL: the sync-* files run on SQLite only (vitest.config.ts).
 */
describe('pinfold serve --cid-profile unixfs-v0-2015: sync folders', () => {
  let server: TestServer;
  const temps: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ cidProfile: 'unixfs-v0-2015' });
  });
  afterAll(async () => {
    await server.stop();
    for (const dir of temps) await rm(dir, { recursive: true, force: true });
  });

  it("a sync folder: its roots are Kubo's, empty subfolders included, before and after a change", async () => {
    const folder = await makeTempDir('pinfold-cid-profile-sync-');
    temps.push(folder);
    await put(folder, 'a.txt', 'alpha\n');
    await put(folder, 'docs/big.bin', bytesOf(600_000, 3));
    await mkdir(path.join(folder, 'empty'));
    const added = await syncAdd(server, server.owner, { path: folder, ipns: false });
    expect(added.status, added.text).toBe(200);
    expect(added.json.data.root).toBe(await referenceRoot(folder, undefined, KUBO_LEGACY));
    expect(added.json.data.root).toMatch(/^Qm/);

    await put(folder, 'docs/note.txt', 'a change\n');
    await put(folder, 'empty/now-not.txt', 'filled\n');
    const root = await converged(server, server.owner, added.json.data.id, folder, undefined, KUBO_LEGACY);
    expect(root).toMatch(/^Qm/);
  });
});
