import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BadInputError } from '../../main/base/errors.js';
import { PENDING_IPNS_NAME, startFolderRunner, type FolderRunner } from '../../main/sync/runner.js';
import { createFakeDomains, createSyncTestEnv, expectedRoot, type FakeDomains, type SyncTestEnv } from '../helpers/sync-fixtures.js';
import { FAST_TIMING, fakeSyncDomains, type FakeSyncDomains } from './sync-runner-kit.js';
import { until } from '../helpers/until.js';
import { SQLITE_QUERIES } from '../../main/store/db/queries.js';

const { getSyncFolder } = SQLITE_QUERIES.sync;

describe('folder runner (the loop of one sync folder, over fake domains)', () => {
  let env: SyncTestEnv;
  let fake: FakeDomains;
  let domains: FakeSyncDomains;
  let runner: FolderRunner | undefined;
  const start = async (): Promise<FolderRunner> => {
    const folder = getSyncFolder(env.db, env.folderId);
    if (!folder) throw new Error('the test folder is missing');
    runner = startFolderRunner({ ...FAST_TIMING, domains, folder });
    return runner;
  };
  const root = (): string => getSyncFolder(env.db, env.folderId)?.rootCid ?? '';

  const setUp = async (ipnsName = 'k51-test-name'): Promise<void> => {
    env = await createSyncTestEnv({ ipnsName });
    fake = createFakeDomains(env.db);
    domains = fakeSyncDomains(env, fake);
  };
  beforeEach(async () => setUp());
  afterEach(async () => {
    await runner?.stop();
    runner = undefined;
    await env.cleanup();
  });

  it('syncs the folder first, pinning under the GC hold, then settles idle', async () => {
    await writeFile(path.join(env.folder, 'a.txt'), 'alpha');
    await mkdir(path.join(env.folder, 'sub'));
    await writeFile(path.join(env.folder, 'sub', 'b.txt'), 'beta');
    const r = await start();
    expect(r.status().state).toBe('scanning');
    await r.firstSync;
    const want = await expectedRoot(env.folder);
    expect(root()).toBe(want);
    expect(domains.pinMoves).toEqual([{ accountId: 1, newRoot: want, oldRoot: undefined, pinName: `sync ${env.folder}`, heldGc: true }]);
    expect(fake.published.get('k51-test-name')).toBe(want);
    await until('idle', () => (r.status().state === 'idle' ? true : undefined));
    expect(getSyncFolder(env.db, env.folderId)?.state).toBe('idle');
    expect(domains.notices.length).toBeGreaterThan(0);
  });

  it('settles a change seen by the watcher into a new root, moving the pin from the old one', async () => {
    await writeFile(path.join(env.folder, 'a.txt'), 'alpha');
    const r = await start();
    await r.firstSync;
    await until('idle', () => (r.status().state === 'idle' ? true : undefined));
    const first = root();
    await writeFile(path.join(env.folder, 'b.txt'), 'beta');
    const want = await expectedRoot(env.folder);
    await until('the new root', () => (root() === want ? true : undefined));
    expect(domains.pinMoves.at(-1)).toMatchObject({ newRoot: want, oldRoot: first, heldGc: true });
  });

  it('creates the IPNS name with the first root when the folder asked for one', async () => {
    await env.cleanup();
    await setUp(PENDING_IPNS_NAME);
    await writeFile(path.join(env.folder, 'a.txt'), 'alpha');
    await (
      await start()
    ).firstSync;
    expect(domains.createdNames).toEqual(['k51-created-0']);
    expect(getSyncFolder(env.db, env.folderId)?.ipnsName).toBe('k51-created-0');
  });

  it('pauses when the folder root is gone, and starts again by itself once it is back', async () => {
    const away = `${env.folder}-away`;
    await rename(env.folder, away);
    const r = await start();
    await expect(r.firstSync).rejects.toBeInstanceOf(BadInputError);
    expect(r.status()).toMatchObject({ state: 'paused' });
    expect(r.status().errors).toHaveLength(1);
    await rename(away, env.folder);
    await until('idle again', () => (r.status().state === 'idle' ? true : undefined));
    expect(r.status().error).toBe('');
  });

  it('goes into error when a batch fails, keeps the old root, and recovers on retry', async () => {
    domains.failing = new Error('disk on fire');
    await writeFile(path.join(env.folder, 'a.txt'), 'alpha');
    const r = await start();
    await expect(r.firstSync).rejects.toThrow('disk on fire');
    expect(r.status()).toMatchObject({ state: 'error', error: 'disk on fire' });
    expect(root()).toBe('');
    domains.failing = undefined;
    r.retry();
    await until('the root after the retry', () => (root() !== '' ? true : undefined));
    await until('idle', () => (r.status().state === 'idle' ? true : undefined));
  });

  it('stops: no more batches, and a first sync still waiting is rejected', async () => {
    await writeFile(path.join(env.folder, 'a.txt'), 'alpha');
    const r = await start();
    await r.stop();
    await expect(r.firstSync).rejects.toThrow(/stopped/);
    const moves = domains.pinMoves.length;
    await writeFile(path.join(env.folder, 'b.txt'), 'beta');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(domains.pinMoves.length).toBe(moves);
  });

  it('a newer record of its name seen elsewhere stops the publish, not the sync; publishNow(force) publishes the current root over it', async () => {
    domains.conflicting = true;
    await writeFile(path.join(env.folder, 'a.txt'), 'alpha');
    const r = await start();
    await r.firstSync;
    const first = root();
    // The version is made and pinned; nothing reaches the name.
    expect(first).toBe(await expectedRoot(env.folder));
    expect(domains.pinMoves.at(-1)).toMatchObject({ newRoot: first });
    expect(fake.published.has('k51-test-name')).toBe(false);
    await until('idle', () => (r.status().state === 'idle' ? true : undefined));
    const told = domains.notices.length;
    await writeFile(path.join(env.folder, 'b.txt'), 'beta');
    const second = await expectedRoot(env.folder);
    await until('the second version', () => (root() === second ? true : undefined));
    expect(fake.published.has('k51-test-name')).toBe(false);
    expect(domains.publishes.map((p) => [p.root, p.outcome])).toEqual([
      [first, 'conflict'],
      [second, 'conflict'],
    ]);
    expect(domains.notices.length).toBeGreaterThan(told);
    // Not forced: still a conflict. Forced: the current root, published.
    expect(await r.publishNow(false)).toBe('conflict');
    expect(await r.publishNow(true)).toBe('published');
    expect(fake.published.get('k51-test-name')).toBe(second);
    expect(domains.publishes.at(-1)).toEqual({ name: 'k51-test-name', root: second, force: true, outcome: 'published' });
  });

  it('publishNow refuses a folder without a name (409) and publishes nothing', async () => {
    await env.cleanup();
    await setUp('');
    await writeFile(path.join(env.folder, 'a.txt'), 'alpha');
    const r = await start();
    await r.firstSync;
    await expect(r.publishNow(true)).rejects.toThrow(/no IPNS name/);
    expect(domains.publishes).toEqual([]);
  });
});
