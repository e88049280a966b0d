/**
 * A program squatting the service's port while the service is down (issue 22, item 2). The desktop runs
 * as main.ts wires it: the supervised service process (`pinfold serve` forked under Node, as main.ts forks
 * it in a utility process) through createDesktopService, the window guard over stand-in windows, the
 * bridge's IPC handlers, the tray's local API. The service is killed, a real HTTP server takes its port
 * (so the restart fails: the port is in use), and nothing of the desktop reaches it or trusts it: no
 * request leaves the window, the tray calls nothing, the bridge answers no window, and once the squatter
 * is gone and the service started again, the bridge answers only a new window of the new run.
 */
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { isRunProof, newRunNonce } from '../../main/base/run-proof.js';
import { createDesktopService } from '../../main/desktop/desktop-service.js';
import { registerIpcHandlers, UntrustedSenderError, type IpcMainLike, type IpcSender } from '../../main/desktop/ipc.js';
import { localApi } from '../../main/desktop/local-api.js';
import { proveService } from '../../main/desktop/service-proof.js';
import type { SupervisorPolicy } from '../../main/desktop/service-supervisor-state.js';
import { createWindowGuard } from '../../main/desktop/window-guard.js';
import { IpcChannels } from '../../shared/preload-bridge.js';
import { FakeWindow } from '../helpers/fake-guarded-window.js';
import { memoryKeychain } from '../helpers/memory-keychain.js';
import { nodeServiceLauncher, waitForStatus } from '../helpers/node-service-launcher.js';
import { portAnswerer } from '../helpers/port-answerer.js';
import { makeTempDir, startTestServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';

const KEYCHAIN_SERVICE = 'Pinfold-squatter-test';
/** A quick restart, so that it comes while the squatter holds the port. */
const policy: SupervisorPolicy = { backoffMs: () => 200, maxCrashes: 5, crashWindowMs: 60_000, stopDeadlineMs: 20_000 };
/** A service start under tsx on a loaded machine can take a while; the deadlines are for a hang, not a measure. */
const START_MS = 90_000;

type Listener = (event: IpcSender, ...args: unknown[]) => unknown;

describe('a program squatting the service port while the service is down', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function desktop() {
    const dataDir = await makeTempDir('pinfold-squatter-');
    const launcher = nodeServiceLauncher([], { PINFOLD_KEYCHAIN_SERVICE: KEYCHAIN_SERVICE });
    const tokens: string[] = [];
    const service = createDesktopService({
      config: { dataDir, port: 0 },
      launch: (args, env) => {
        tokens.push(env.PINFOLD_RUN_TOKEN ?? '');
        return launcher.launch(args, env);
      },
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
    const url = service.url() ?? '';
    const origin = new URL(url).origin;

    // As main.ts wires them.
    const windows: FakeWindow[] = [];
    const guard = createWindowGuard<FakeWindow>({
      origin,
      service,
      create: (page) => {
        const win = new FakeWindow(origin, page);
        windows.push(win);
        return win;
      },
      // The session's HTTP cache and service workers are Chromium's; the stand-in has none to forget.
      forgetOrigin: async () => undefined,
      onError: (error) => {
        throw error;
      },
    });
    cleanups.push(async () => guard.stop());
    const handlers = new Map<string, Listener>();
    const ipcMain: IpcMainLike = {
      handle: (channel, listener) => void handlers.set(channel, listener),
      removeHandler: (channel) => void handlers.delete(channel),
    };
    registerIpcHandlers(ipcMain, {
      serviceOrigin: origin,
      isTrustedWindow: (id) => guard.isTrusted(id),
      ownerKey: () => service.ownerKey(),
      pickFolder: async () => null,
      openExternal: async () => undefined,
      keySecrets: { keep: async () => true, read: async () => 's'.repeat(64), forget: async () => undefined },
      launchAtLogin: { isEnabled: async () => false, setEnabled: async () => undefined },
      openFolder: async () => false,
      appVersion: '0.0.0',
    });
    /** A call over the bridge from the renderer's top frame in `win`, as Electron hands it to the handler. */
    const bridge = async (win: FakeWindow, channel: string, ...args: unknown[]) => {
      const handler = handlers.get(channel);
      if (!handler) throw new Error(`no handler for ${channel}`);
      return handler({ sender: { id: win.webContents.id }, senderFrame: { url: win.webContents.getURL(), parent: null } }, ...args);
    };
    /** A request of the window's session: the session policy cancels what the guard refuses (net::ERR_BLOCKED_BY_CLIENT). */
    const windowFetch = async (target: string, headers: Record<string, string> = {}) => {
      if (!guard.allowsRequest(target)) throw new Error('net::ERR_BLOCKED_BY_CLIENT');
      return fetch(target, { headers });
    };
    const tray = localApi(() => {
      const current = service.url();
      const ownerKey = service.ownerKey();
      return current === null || ownerKey === null ? null : { url: current, ownerKey };
    });
    const kill = (index: number) => process.kill(launcher.processes[index]?.pid as number, 'SIGKILL');
    return { dataDir, launcher, service, tokens, url, origin, guard, windows, bridge, windowFetch, tray, kill };
  }

  it('gets nothing from the window or the tray, gives the bridge nothing, and the bridge answers only the new window once the service is back', async () => {
    const app = await desktop();
    app.guard.open();
    const first = await until('the window', () => app.windows[0]);
    const owner = app.service.ownerKey();
    expect(owner).not.toBeNull();
    await expect(app.bridge(first, IpcChannels.getOwnerKey)).resolves.toEqual(owner);
    expect((await app.windowFetch(`${app.url}/api/v0/plans`)).status).toBe(200);

    // The service dies; a local program takes its port the moment the app sees it go, before the restart.
    const port = Number(new URL(app.url).port);
    const squatting = new Promise<Awaited<ReturnType<typeof portAnswerer>>>((resolve, reject) => {
      const stop = app.service.onStateChange((status) => {
        if (status.state !== 'restarting') return;
        stop();
        portAnswerer(() => 'A'.repeat(43), port).then(resolve, reject);
      });
    });
    const crashed = waitForStatus(app.service, (status) => status.state === 'crashed', START_MS);
    app.kill(0);
    const squatter = await squatting;
    const given = await crashed;
    cleanups.push(() => squatter.close());
    // The restart could not take the port: the service says so and is not restarted into the same failure.
    expect(given.detail).toMatch(/could not start/);
    expect(app.launcher.processes).toHaveLength(2);

    expect(app.service.url()).toBeNull();
    expect(app.service.ownerKey()).toBeNull();
    // The window's requests (a reload, its calls with the owner key in their headers) never leave.
    await expect(app.windowFetch(`${app.url}/`)).rejects.toThrow('ERR_BLOCKED_BY_CLIENT');
    await expect(
      app.windowFetch(`${app.url}/api/v0/sync?ts=1`, { 'X-Access-Key': owner?.access_key ?? '', 'X-Access-Secret': owner?.access_secret ?? '' }),
    ).rejects.toThrow('ERR_BLOCKED_BY_CLIENT');
    // The tray calls nothing.
    await expect(app.tray.syncFolders()).rejects.toMatchObject({ name: 'LocalApiError', status: 0, message: 'the Pinfold service is not running' });
    // The tray's Open (and a notification's click) shows the window as it was: no load, no new window.
    app.guard.open('/settings');
    expect(app.windows).toHaveLength(1);
    expect(first.loaded).toEqual([]);
    // Even a page of the squatter's in that window (had it got in between the crash and the app hearing
    // of it) gets nothing over the bridge.
    for (const channel of [IpcChannels.getOwnerKey, IpcChannels.readSecret, IpcChannels.appVersion]) {
      const args = channel === IpcChannels.readSecret ? [owner?.access_key] : [];
      await expect(app.bridge(first, channel, ...args)).rejects.toBeInstanceOf(UntrustedSenderError);
    }
    expect(squatter.seen).toEqual([]);

    // The squatter goes; Start Pinfold again (the tray's) starts a new run, which proves itself.
    await squatter.close();
    app.service.supervisor.start();
    await waitForStatus(app.service, (status) => status.state === 'running', START_MS);
    expect(app.service.verifiedRun()).toBe(2);
    expect(app.tokens).toHaveLength(3);
    expect(new Set(app.tokens).size).toBe(3);
    const second = await until('the new window', () => app.windows[1]);
    // The window of the earlier run is replaced whole, on the page asked for meanwhile; only the new one is trusted.
    expect(first.destroyed).toBe(true);
    expect(second.page).toEqual({ path: '/settings', hidden: false });
    await expect(app.bridge(first, IpcChannels.getOwnerKey)).rejects.toBeInstanceOf(UntrustedSenderError);
    await expect(app.bridge(second, IpcChannels.getOwnerKey)).resolves.toEqual(owner);
    expect((await app.windowFetch(`${app.url}/api/v0/plans`)).status).toBe(200);
    await expect(app.tray.syncFolders()).resolves.toEqual([]);
    expect(squatter.seen).toEqual([]);
  });

  it("the service answers the proof of its run's token for a fresh nonce; a squatter replaying that answer is refused", async () => {
    const app = await desktop();
    const token = app.tokens[0] ?? '';
    await expect(proveService(app.url, token)).resolves.toEqual({ proved: true });
    // Another run's token proves nothing.
    await expect(proveService(app.url, 'B'.repeat(43))).resolves.toMatchObject({ proved: false });

    // An answer of the real service, seen once, replayed by a squatter for every nonce.
    const seenNonce = newRunNonce();
    const seen = await fetch(`${app.url}/api/v0/service/proof?nonce=${seenNonce}`);
    expect(seen.headers.get('cache-control')).toBe('no-store');
    const seenProof = ((await seen.json()) as { data: { proof: string } }).data.proof;
    expect(isRunProof(token, seenNonce, seenProof)).toBe(true);
    const replayer = await portAnswerer(() => seenProof);
    cleanups.push(() => replayer.close());
    await expect(proveService(replayer.url, token)).resolves.toEqual({ proved: false, reason: 'the proof does not match this run' });
    // Nothing secret went to it: no key, no token.
    expect(replayer.seen).toHaveLength(1);
    expect(replayer.seen[0]?.headers['x-access-key']).toBeUndefined();
    expect(JSON.stringify(replayer.seen)).not.toContain(token);
  });

  it('refuses a malformed nonce with the envelope; a service started without a token has no proof to give', async () => {
    const app = await desktop();
    for (const query of ['', '?nonce=short', `?nonce=${'a'.repeat(43)}&nonce=${'b'.repeat(43)}`, `?nonce=${'a'.repeat(42)}%2B`]) {
      const response = await fetch(`${app.url}/api/v0/service/proof${query}`);
      expect(response.status, query).toBe(400);
      expect(await response.json()).toEqual({ code: 400, msg: 'nonce must be 43 base64url characters (32 random bytes)', error: 'bad_input', param: 'nonce' });
    }
    const plain = await startTestServer();
    cleanups.push(async () => {
      await plain.stop();
      await rm(plain.dataDir, { recursive: true, force: true });
    });
    const response = await fetch(`${plain.url}/api/v0/service/proof?nonce=${newRunNonce()}`);
    expect(response.status).toBe(404);
  });
});
