import { chmod, mkdir, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type AppInit } from '../../main/app/create-app.js';
import { START_STEPS, type StartStep } from '../../main/app/start-steps.js';
import type { ServiceConfig } from '../../main/base/config.js';
import { openEvents } from '../helpers/event-stream-reader.js';
import { activeResourceCounts, expectNothingLeftRunning, trackResources } from '../helpers/live-resources.js';
import { ownerKeyOf } from '../helpers/owner-key.js';
import { suiteDatabase, suiteEngine } from '../helpers/suite-database.js';
import { call, makeTempDir } from '../helpers/test-server.js';
import { testConfig } from '../helpers/test-network.js';
import { converged, put, syncAdd } from './sync-helpers.js';
import { until } from '../helpers/until.js';

/**
 * Issue 25, part 3: whatever createApp starts is closed again, by close() after a whole start and by the
 * start itself when it fails halfway. A start is failed at each of its steps (AppInit.startHook); after it,
 * nothing Pinfold made may still run (timers, workers, sockets, fs watchers: test/helpers/live-resources.ts),
 * the data folder's lock file is gone and the folder opens again.
 */
class InjectedFailure extends Error {
  constructor(readonly step: StartStep) {
    super(`injected failure at ${step}`);
  }
}

describe('createApp closes what it started', () => {
  let dataDir: string;
  let runtimeDir: string;
  let syncedFolder: string | undefined;
  let config: ServiceConfig;
  let env: NodeJS.ProcessEnv;

  const lockFile = (): string => join(dataDir, 'pinfold.lock');
  const start = (init: Partial<AppInit> = {}) => createApp({ config, env, ...init });

  /** Nothing left running, the lock and the sign-in pages' folder gone, and the folder opens again. */
  const expectAllLetGo = async (tracker: ReturnType<typeof trackResources>, baseline: Map<string, number>): Promise<void> => {
    await expectNothingLeftRunning(tracker, baseline);
    expect(existsSync(lockFile())).toBe(false);
    expect(await readdir(runtimeDir)).toEqual([]);
    const again = await start();
    await again.close();
  };

  beforeAll(async () => {
    dataDir = await makeTempDir('pinfold-lifecycle-');
    // The sign-in pages' private folder goes here, so a test sees it made and removed.
    runtimeDir = join(await makeTempDir('pinfold-lifecycle-run-'), 'run');
    await mkdir(runtimeDir);
    await chmod(runtimeDir, 0o700);
    env = { XDG_RUNTIME_DIR: runtimeDir };
    // The suite's engine is started here, before any test takes its baseline.
    config = testConfig({ port: 0, dataDir, ...(await suiteDatabase(dataDir)) });
    // A sync folder, so that every later start also starts its runner and its watcher (SQLite only: the
    // scale-out mode refuses sync folders).
    if (suiteEngine() === 'sqlite') {
      const first = await start();
      try {
        const url = await first.listen();
        syncedFolder = await makeTempDir('pinfold-lifecycle-synced-');
        await put(syncedFolder, 'a.txt', 'watched while the service runs');
        const added = await syncAdd({ url }, ownerKeyOf(first), { path: syncedFolder });
        expect(added.status).toBe(200);
        await converged({ url }, ownerKeyOf(first), added.json.data.id, syncedFolder);
      } finally {
        await first.close();
      }
    }
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await rm(join(runtimeDir, '..'), { recursive: true, force: true });
    if (syncedFolder) await rm(syncedFolder, { recursive: true, force: true });
  });

  it('a whole start passes every step, in order', async () => {
    const seen: StartStep[] = [];
    const app = await start({ startHook: (step) => void seen.push(step) });
    await app.close();
    expect(seen).toEqual([...START_STEPS]);
  });

  it.each(START_STEPS)('a start that fails at %s leaves nothing running and the folder free', async (step) => {
    const baseline = activeResourceCounts();
    const tracker = trackResources();
    try {
      const failure = new InjectedFailure(step);
      await expect(
        start({
          startHook: (reached) => {
            if (reached === step) throw failure;
          },
        }),
      ).rejects.toBe(failure);
      await expectAllLetGo(tracker, baseline);
    } finally {
      tracker.stop();
    }
  });

  it('close() after a whole start that served requests leaves nothing running and the folder free', async () => {
    const baseline = activeResourceCounts();
    const tracker = trackResources();
    try {
      const app = await start();
      const url = await app.listen();
      const owner = ownerKeyOf(app);
      // An event stream open, a sign-in page written, a request answered: the server's parts in use.
      const events = await openEvents({ url }, owner);
      expect(events.status).toBe(200);
      const handoff = await call<{ data: { path: string } }>({ url }, 'POST', '/api/v0/session/handoff', { key: owner });
      expect(handoff.status).toBe(200);
      expect(existsSync(handoff.json.data.path)).toBe(true);
      expect((await call({ url }, 'GET', '/api/v0/stats', { key: owner })).status).toBe(200);
      expect(existsSync(join(dataDir, 'server.json'))).toBe(true);
      // The sync folder's runner watches it (SQLite): a watcher that close() must stop.
      // Seen by the tracker (made since this test began), not by a count against the baseline: a watcher of
      // the start before may still be closing when the baseline is taken, and be counted in it.
      if (syncedFolder) await until('the sync folder watched', () => (tracker.live().some((resource) => resource.type === 'FSEVENTWRAP') ? true : undefined));
      await app.close();
      await events.ended();
      expect(existsSync(join(dataDir, 'server.json'))).toBe(false);
      await expectAllLetGo(tracker, baseline);
    } finally {
      tracker.stop();
    }
  });
});
