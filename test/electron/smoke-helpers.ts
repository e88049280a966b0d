import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { SyncFolderView } from '../../shared/api-types.js';

/**
 * The Node side of the Electron smoke test (smoke.test.ts): how the app is launched, how the test
 * reads the service it started, and how it knows the service stopped cleanly. Unit-tested in the
 * suite (test/integration/electron-smoke-helpers.test.ts); only the Electron launch itself needs the
 * release workflow.
 */

/** Electron's arguments: the app folder, then Pinfold's own flags (a temp data folder, any free port). */
export function launchArgs(appRoot: string, dataDir: string): string[] {
  return [appRoot, '--data', dataDir, '--port', '0'];
}

/** The app's environment: the hook the test reads the tray through, no update checks, nothing of the developer's own Electron flags. */
export function launchEnv(base: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || name === 'ELECTRON_RUN_AS_NODE' || name === 'NODE_OPTIONS') continue;
    env[name] = value;
  }
  return { ...env, PINFOLD_SMOKE_TEST: '1', PINFOLD_UPDATES: 'off' };
}

/** The tray as main.ts shows it to the smoke test (`globalThis.pinfoldSmoke`). */
export interface SmokeTray {
  exists: boolean;
  tooltip: string;
}

export interface OwnerKeyPair {
  access_key: string;
  access_secret: string;
}

/** `GET /api/v0/sync` as the owner. */
export async function syncFolders(url: string, key: OwnerKeyPair): Promise<SyncFolderView[]> {
  const response = await fetch(`${url}/api/v0/sync?ts=${Math.floor(Date.now() / 1000)}`, {
    headers: { 'X-Access-Key': key.access_key, 'X-Access-Secret': key.access_secret },
  });
  const body = (await response.json()) as { code: number; msg?: string; data?: SyncFolderView[] };
  if (response.status !== 200 || !Array.isArray(body.data)) throw new Error(`GET /api/v0/sync answered ${response.status}: ${body.msg ?? ''}`);
  return body.data;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * A service that stopped cleanly leaves its data folder free: no `server.json` (it is removed at close)
 * and no `pinfold.lock` (released once the database is closed). A killed service leaves both behind.
 */
export async function dataFolderReleased(dataDir: string): Promise<boolean> {
  return !(await exists(join(dataDir, 'server.json'))) && !(await exists(join(dataDir, 'pinfold.lock')));
}
