/**
 * The desktop app for real, in Electron (Playwright's _electron): it starts, the window signs in by
 * itself and gets no web permission, the tray is there, a folder dropped on the Sync page through the bridge starts syncing,
 * closing the window keeps it running, and Quit stops the service cleanly. Runs in the release
 * workflow on macOS, Windows and Linux (under xvfb); see test/electron/vitest.config.ts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataFolderReleased, launchArgs, launchEnv, syncFolders, type OwnerKeyPair, type SmokeTray } from './smoke-helpers.js';
import { until } from '../helpers/until.js';

const appRoot = fileURLToPath(new URL('../..', import.meta.url));
/** Electron under xvfb on a release runner is slow to start and to draw: a minute, for a hang, not a measure. */
const WAIT_MS = 60_000;

describe('the Pinfold desktop app', () => {
  let dataDir: string;
  let folder: string;
  let app: ElectronApplication;
  let window: Page;
  let owner: OwnerKeyPair;
  let serviceUrl: string;

  const tray = () => app.evaluate(() => (globalThis as unknown as { pinfoldSmoke: { tray(): SmokeTray } }).pinfoldSmoke.tray());

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pinfold-smoke-data-'));
    folder = await mkdtemp(join(tmpdir(), 'pinfold-smoke-folder-'));
    await writeFile(join(folder, 'hello.txt'), 'hello from the smoke test');
    app = await _electron.launch({ args: launchArgs(appRoot, dataDir), env: launchEnv(process.env) });
    window = await app.firstWindow();
  });
  afterAll(async () => {
    await app?.close().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
    await rm(folder, { recursive: true, force: true });
  });

  it('starts, and the window signs the owner in by itself', async () => {
    await window.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 60_000 });
    serviceUrl = new URL(window.url()).origin;
    const key = await window.evaluate(() => (globalThis as unknown as { pinfold: { getOwnerKey(): Promise<OwnerKeyPair | null> } }).pinfold.getOwnerKey());
    expect(key).not.toBeNull();
    owner = key as OwnerKeyPair;
  });

  it('grants the window no web permission: checks are denied too, not only requests', async () => {
    // Without a check handler Electron answers every check "granted" (string scripts: no DOM types here).
    for (const name of ['notifications', 'geolocation', 'camera']) {
      const state = await window.evaluate(`navigator.permissions.query({ name: '${name}' }).then((status) => status.state)`);
      expect(state, name).toBe('denied');
    }
  });

  it('has its tray icon', async () => {
    const shown = await until(
      'the tray',
      async () => {
        const state = await tray();
        return state.exists && state.tooltip !== '' ? state : undefined;
      },
      WAIT_MS,
    );
    expect(shown.tooltip).toBe('No folders synced yet');
  });

  it('starts syncing a folder dropped on the Sync page, through the bridge', async () => {
    await window.getByRole('link', { name: 'Sync' }).click();
    await window.getByRole('heading', { level: 1 }).waitFor();
    // A File with a real path behind it, as a drop from the file manager gives: made by a file input
    // (Playwright hands Chromium the path), then dropped on the page as the e2e tests drop (string
    // scripts: this file is type-checked without DOM types).
    await window.evaluate(`(() => {
      const input = document.createElement('input');
      input.type = 'file';
      input.id = 'smoke-file-input';
      input.style.display = 'none';
      document.body.append(input);
    })()`);
    await window.setInputFiles('#smoke-file-input', folder);
    await window.evaluate(`(() => {
      const input = document.getElementById('smoke-file-input');
      const data = new DataTransfer();
      for (const file of Array.from(input.files)) data.items.add(file);
      for (const type of ['dragenter', 'dragover', 'drop']) {
        document.body.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data }));
      }
      input.remove();
    })()`);
    const synced = await until(
      'the dropped folder synced',
      async () => {
        const rows = await syncFolders(serviceUrl, owner);
        const row = rows.find((candidate) => candidate.path === folder);
        return row !== undefined && row.root !== '' && row.state === 'idle' ? row : undefined;
      },
      WAIT_MS,
    );
    expect(synced.files).toBe(1);
    await until('the tray to show it', async () => ((await tray()).tooltip === 'Up to date: 1 folder synced' ? true : undefined), WAIT_MS);
  });

  it('keeps running when the window is closed', async () => {
    // As the title bar's close button does.
    await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.close());
    await until(
      'the window hidden',
      async () => ((await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().every((w) => !w.isVisible()))) ? true : undefined),
      WAIT_MS,
    );
    expect((await tray()).exists).toBe(true);
    expect(await syncFolders(serviceUrl, owner)).toHaveLength(1);
  });

  it('quits from the menu and stops the service cleanly', async () => {
    const exited = new Promise<void>((resolve) => app.process().once('exit', () => resolve()));
    await app.evaluate(({ app: electronApp }) => electronApp.quit());
    await exited;
    expect(await dataFolderReleased(dataDir)).toBe(true);
    await expect(fetch(`${serviceUrl}/api/v0/plans`)).rejects.toThrow();
  });
});
