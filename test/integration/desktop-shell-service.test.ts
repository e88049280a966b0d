/**
 * The desktop shell (tray, notifications, links) over the service as the desktop app runs it: the
 * supervisor's service process (`pinfold serve` forked under Node, as main.ts forks it in a utility
 * process) through createDesktopService, whose status the shell reads. A kill -9 of the process is
 * drawn as an error, told once when the service is back, and the tray follows the new process's event
 * stream; a supervisor that gives up is drawn and told with its reason. Only Electron is a stand-in.
 */
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createDesktopService, type DesktopService } from '../../main/desktop/desktop-service.js';
import { startShell } from '../../main/desktop/desktop-shell.js';
import type { SupervisorPolicy } from '../../main/desktop/service-supervisor-state.js';
import { memoryKeychain } from '../helpers/memory-keychain.js';
import { nodeServiceLauncher, waitForStatus } from '../helpers/node-service-launcher.js';
import { call, makeTempDir } from '../helpers/test-server.js';
import { drawnWith, memoryLaunchAtLogin, recordingHost } from './desktop-shell-helpers.js';
import { put } from './sync-helpers.js';
import { until } from '../helpers/until.js';

const KEYCHAIN_SERVICE = 'Pinfold-shell-test';
const quickRestarts: SupervisorPolicy = { backoffMs: () => 100, maxCrashes: 5, crashWindowMs: 60_000, stopDeadlineMs: 20_000 };
/** A service start under tsx on a loaded machine can take a while; the deadlines are for a hang, not a measure. */
const START_MS = 90_000;

describe('the desktop shell over the supervised service process', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function desktop(policy: SupervisorPolicy) {
    const dataDir = await makeTempDir('pinfold-shell-service-');
    const launcher = nodeServiceLauncher([], { PINFOLD_KEYCHAIN_SERVICE: KEYCHAIN_SERVICE });
    const service = createDesktopService({
      config: { dataDir, port: 0 },
      launch: (args, env) => launcher.launch(args, env),
      keychain: { service: KEYCHAIN_SERVICE, entry: memoryKeychain().factory },
      policy,
    });
    cleanups.push(async () => {
      await service.supervisor.stop();
      await launcher.killAll();
      await rm(dataDir, { recursive: true, force: true });
    });
    service.supervisor.start();
    const first = await waitForStatus(service, (status) => status.state === 'running' || status.state === 'crashed', START_MS);
    if (first.state !== 'running') throw new Error(`the service did not start: ${first.detail ?? ''}\n${launcher.output()}`);

    // As main.ts wires it once the service first runs.
    const recorder = recordingHost(() => null);
    const shell = startShell({
      host: recorder.host,
      status: service,
      connection: () => {
        const url = service.url();
        const ownerKey = service.ownerKey();
        return url === null || ownerKey === null ? null : { url, ownerKey };
      },
      restartService: () => service.supervisor.start(),
      publicGateway: () => false,
      dataDir,
      launchAtLogin: memoryLaunchAtLogin(),
      onError: () => {},
      redrawMs: 5,
    });
    cleanups.push(async () => shell.stop());
    const kill = (index: number) => process.kill(launcher.processes[index]?.pid as number, 'SIGKILL');
    return { dataDir, launcher, service, shell, ...recorder, kill };
  }

  const owner = (service: DesktopService) => {
    const key = service.ownerKey();
    if (key === null) throw new Error('no owner key');
    return key;
  };

  it('a crash of the service process: the error icon while it restarts, one notification when it is back, and the new stream drives the tray', async () => {
    const app = await desktop(quickRestarts);
    const folder = await makeTempDir('pinfold-shell-service-folder-');
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    await put(folder, 'a.txt', 'a');
    await app.shell.tray.addFolders([folder]);
    await drawnWith(app.last, 'the folder synced', (d) => d.tooltip === 'Up to date: 1 folder synced', START_MS);
    await until('the first-sync notification', () => (app.notes.length > 0 ? true : undefined));
    const url = app.service.url();
    const root = app.shell.content.current().folders?.[0]?.root ?? '';
    expect(root).not.toBe('');

    // A link that comes while the service is down (handed over the moment it is) waits for it.
    let openedWhileDown: string[] | null = null;
    const stopWatching = app.service.onChange((status) => {
      if (status.state !== 'restarting') return;
      stopWatching();
      app.shell.links.handle(`ipfs://${root}`);
      openedWhileDown = [...app.opened];
    });
    const drawnBefore = app.drawn.length;
    app.kill(0);
    // Every drawing since the kill, not only the latest: the service may be starting again already.
    const down = await until('the crash drawn', () => app.drawn.slice(drawnBefore).find((d) => d.icon === 'error'));
    expect(down.tooltip).toBe('Pinfold stopped unexpectedly and is restarting…');
    expect(openedWhileDown).toEqual([]);

    await until('the restart notification', () => (app.notes.some((note) => note.title === 'Pinfold restarted') ? true : undefined), START_MS);
    expect(app.service.current()).toMatchObject({ state: 'running', recovered: true });
    expect(app.service.url()).toBe(url);
    expect(app.launcher.processes).toHaveLength(2);
    // Through a sign-in page, whose path the OS is handed (desktop-shell.test.ts has the page itself).
    await until('the link opened', () => (app.opened.length > 0 ? true : undefined));
    expect(app.opened).toHaveLength(1);
    const page = readFileSync(app.opened[0] ?? '', 'utf8');
    const link = new URL(JSON.parse(/location\.replace\(("[^"]*")\)/.exec(page)?.[1] ?? '""') as string);
    expect(link.searchParams.get('next')).toBe(`/view?path=%2Fipfs%2F${root}`);
    expect(app.external).toEqual([]);
    await drawnWith(app.last, 'the list again', (d) => d.icon === 'idle' && d.tooltip === 'Up to date: 1 folder synced');

    // The new process's event stream drives the tray: a pause through the API shows without a reload.
    const [row] = app.shell.content.current().folders ?? [];
    const paused = await call({ url: url as string }, 'POST', '/api/v0/sync/pause', { key: owner(app.service), query: { id: row?.id ?? '' } });
    expect(paused.status).toBe(200);
    await drawnWith(app.last, 'paused through the new stream', (d) => d.icon === 'paused');
    expect(app.notes.map((note) => note.title).filter((title) => title.startsWith('Pinfold'))).toEqual(['Pinfold restarted']);
  });

  it('a supervisor that gives up: the error icon with its reason, one notification, and Start Pinfold again in the tray', async () => {
    const app = await desktop({ ...quickRestarts, maxCrashes: 2, crashWindowMs: 120_000 });
    app.kill(0);
    await until('the restart', () => (app.notes.some((note) => note.title === 'Pinfold restarted') ? true : undefined), START_MS);
    app.kill(1);
    const crashed = await waitForStatus(app.service, (status) => status.state === 'crashed', START_MS);
    const detail = 'The Pinfold service stopped 2 times within 2 minutes (last: it was killed by SIGKILL); it was not restarted again.';
    expect(crashed.detail).toBe(detail);
    const drawn = await drawnWith(app.last, 'given up', (d) => d.tooltip === detail);
    expect(drawn.icon).toBe('error');
    await until('the stop notification', () => (app.notes.some((note) => note.title === 'Pinfold stopped') ? true : undefined));
    expect(app.notes.map((note) => note.title)).toEqual(['Pinfold restarted', 'Pinfold stopped']);
    expect(app.notes[1]?.body).toBe(
      `${detail.slice(0, -1)}. Your folders are not syncing; choose Start Pinfold again in the tray menu once the cause is fixed.`,
    );
    expect(app.launcher.processes).toHaveLength(2);

    // The tray offers to start it again, and that starts a fresh process.
    const labels = (d: { menu: Array<{ type: string; label?: string }> }) => d.menu.map((item) => ('label' in item ? item.label : item.type));
    expect(labels(drawn)).toContain('Start Pinfold again');
    await app.shell.tray.run({ kind: 'restart-service' });
    await waitForStatus(app.service, (status) => status.state === 'running', START_MS);
    expect(app.launcher.processes).toHaveLength(3);
    const back = await drawnWith(app.last, 'running again', (d) => d.icon === 'idle');
    expect(labels(back)).not.toContain('Start Pinfold again');
  });
});
