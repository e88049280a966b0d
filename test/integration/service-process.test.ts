/**
 * The service process for real under Node: `pinfold serve` forked with an IPC channel and watched by
 * the desktop's supervisor (the utility process runs the same entry under Electron). Start, serve,
 * a clean stop with the data intact, a kill -9 and the restart, a failed start that is not retried.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceSupervisor, type ServiceSupervisor } from '../../main/desktop/service-supervisor.js';
import type { ServiceStatus } from '../../main/desktop/service-supervisor-state.js';
import type { OwnerKey } from '../../main/app/create-app.js';
import { osKeychainEntry } from '../../main/secrets/keychain-entry.js';
import { locateOwnerKey } from '../../main/secrets/owner-key-locator.js';
import { createKey } from '../helpers/account-api.js';
import { nodeServiceLauncher, waitForStatus } from '../helpers/node-service-launcher.js';
import { call, makeTempDir } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';
import type { SettingsView } from '../../shared/api-types.js';

const quickRestarts = { backoffMs: () => 100, maxCrashes: 5, crashWindowMs: 60_000, stopDeadlineMs: 20_000 };

describe('the service process under its supervisor', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setup() {
    const dataDir = await makeTempDir('pinfold-service-process-');
    const launcher = nodeServiceLauncher(['--data', dataDir, '--port', '0']);
    const supervisor = createServiceSupervisor({ launch: launcher.launch, policy: quickRestarts });
    const seen: ServiceStatus[] = [];
    supervisor.onStateChange((status) => seen.push(status));
    cleanups.push(async () => {
      await supervisor.stop();
      await launcher.killAll();
      await rm(dataDir, { recursive: true, force: true });
    });
    return { dataDir, launcher, supervisor, seen };
  }

  async function ownerOf(dataDir: string): Promise<OwnerKey> {
    const { key } = await locateOwnerKey(dataDir, osKeychainEntry);
    if (!key) throw new Error('no owner key');
    return key;
  }

  const running = (supervisor: ServiceSupervisor) => waitForStatus(supervisor, (status) => status.state === 'running');

  it('starts, serves, and stops cleanly on the stop message: exit 0, lock and server.json gone, data intact for the next start', async () => {
    const { dataDir, launcher, supervisor, seen } = await setup();
    supervisor.start();
    const { url } = await running(supervisor);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const owner = await ownerOf(dataDir);
    const key = await createKey({ url: url as string }, owner, 'kept-across-restarts', ['read']);

    await supervisor.stop();
    expect(supervisor.status()).toEqual({ state: 'stopped' });
    expect(launcher.exits).toEqual([{ pid: launcher.processes[0]?.pid, code: 0, signal: null }]);
    expect(existsSync(join(dataDir, 'pinfold.lock'))).toBe(false);
    expect(existsSync(join(dataDir, 'server.json'))).toBe(false);
    expect(seen.map((status) => status.state)).toEqual(['starting', 'running', 'stopped']);

    supervisor.start();
    const again = await running(supervisor);
    const keys = await call<{ data: { access_key: string; name: string }[] }>({ url: again.url as string }, 'GET', '/api/v0/keys', { key: owner });
    expect(keys.status).toBe(200);
    expect(keys.json.data.map((row) => row.access_key)).toContain(key.access_key);
  });

  it('a kill -9 is reported and the supervisor restarts the service, which serves the same data', async () => {
    const { dataDir, launcher, supervisor, seen } = await setup();
    supervisor.start();
    await running(supervisor);
    const owner = await ownerOf(dataDir);
    process.kill(launcher.processes[0]?.pid as number, 'SIGKILL');
    const restarting = await waitForStatus(supervisor, (status) => status.state === 'restarting');
    expect(restarting.detail).toBe('The Pinfold service was killed by SIGKILL; restarting in 1 s.');
    const back = await waitForStatus(supervisor, (status) => status.state === 'running' && status.recovered === true);
    expect(launcher.processes).toHaveLength(2);
    expect((await call({ url: back.url as string }, 'GET', '/api/v0/stats', { key: owner })).status).toBe(200);
    expect(seen.map((status) => status.state)).toEqual(['starting', 'running', 'restarting', 'starting', 'running']);
  });

  it('a stop while a restart is pending spawns nothing more', async () => {
    const dataDir = await makeTempDir('pinfold-service-process-');
    const launcher = nodeServiceLauncher(['--data', dataDir, '--port', '0']);
    const supervisor = createServiceSupervisor({ launch: launcher.launch, policy: { ...quickRestarts, backoffMs: () => 60_000 } });
    cleanups.push(async () => {
      await supervisor.stop();
      await launcher.killAll();
      await rm(dataDir, { recursive: true, force: true });
    });
    supervisor.start();
    await running(supervisor);
    process.kill(launcher.processes[0]?.pid as number, 'SIGKILL');
    await waitForStatus(supervisor, (status) => status.state === 'restarting');
    await supervisor.stop();
    expect(supervisor.status()).toEqual({ state: 'stopped' });
    expect(launcher.processes).toHaveLength(1);
  });

  it('a start that cannot succeed (a master key that does not open the folder) is reported with its reason and not retried', async () => {
    const { dataDir, launcher, supervisor } = await setup();
    supervisor.start();
    await running(supervisor);
    await supervisor.stop();
    writeFileSync(join(dataDir, 'master.key'), `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    supervisor.start();
    const crashed = await waitForStatus(supervisor, (status) => status.state === 'crashed');
    expect(crashed.detail).toMatch(/^The Pinfold service could not start: the master key in files in .* does not open this data folder's secrets/);
    expect(launcher.processes).toHaveLength(2);
    expect(launcher.exits.at(-1)?.code).toBe(1);
  });

  it("tells its parent what the settings say of the desktop app, once ready and after a change; the app's port pins nothing", async () => {
    const dataDir = await makeTempDir('pinfold-service-process-');
    const launcher = nodeServiceLauncher(['--data', dataDir, '--desktop-port', '0']);
    const told: Array<boolean | null> = [];
    const supervisor = createServiceSupervisor({
      launch: launcher.launch,
      policy: quickRestarts,
      onDesktopSettings: ({ launchAtLogin }) => told.push(launchAtLogin),
    });
    cleanups.push(async () => {
      await supervisor.stop();
      await launcher.killAll();
      await rm(dataDir, { recursive: true, force: true });
    });
    supervisor.start();
    const { url } = await running(supervisor);
    await until('the settings told at start', () => (told.length === 1 ? true : undefined), 10_000);
    expect(told).toEqual([null]);
    const owner = await ownerOf(dataDir);
    const answer = await call<{ data: SettingsView }>({ url: url as string }, 'POST', '/api/v0/settings', { key: owner, body: { launch_at_login: true } });
    expect(answer.json.data.settings.port).toMatchObject({ value: 0, pinned_by: null });
    await until('the change told', () => (told.length === 2 ? true : undefined), 10_000);
    expect(told).toEqual([null, true]);
  });
});
