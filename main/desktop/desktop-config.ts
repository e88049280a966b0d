import { resolve } from 'node:path';
import { DEFAULTS, defaultConfig, type ServiceConfig } from '../base/config.js';
import { dataFolderPaths } from '../base/data-folder.js';
import { SettingsFile } from '../base/settings-file.js';
import { readSavedSettings } from '../base/settings-store.js';
import { SERVER_SETTINGS } from '../http/server-section.js';

/**
 * The desktop's service settings: the defaults `pinfold serve` uses (same data folder, so both see the
 * same repo), with `--data DIR`, `--port N` and `--public-gateway` honoured when the app is launched with
 * them (as `pinfold serve` takes them: each given one pins its setting for the run). Electron and Chromium
 * put their own switches on the command line too; anything else is ignored, not an error.
 */
export function desktopConfig(argv: readonly string[]): ServiceConfig {
  const overrides: Partial<ServiceConfig> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = splitFlag(argv[i] ?? '');
    if (flag === '--public-gateway') {
      if (inline !== undefined) throw new Error('--public-gateway takes no value');
      overrides.publicGateway = true;
      continue;
    }
    if (flag !== '--data' && flag !== '--port') continue;
    const value = inline ?? argv[i + 1];
    if (inline === undefined) i += 1;
    if (value === undefined || value === '') throw new Error(`${flag} needs a value`);
    if (flag === '--data') overrides.dataDir = resolve(value);
    else overrides.port = parsePort(value);
  }
  return defaultConfig(overrides);
}

/** How the app starts its service: on which port, and whether the gateway is public. */
export interface DesktopServicePlan {
  /** The app's `--port`, else the data folder's saved port, else the default; taken, the app picks a free one. */
  preferredPort: number;
  /** The app was launched with `--port`: it pins the setting. */
  portPinned: boolean;
  /** The app was launched with `--public-gateway`: passed on as the flag. */
  publicGatewayFlag: boolean;
  /** Whether the gateway is public this run (the flag, else the saved setting): how the app opens links. */
  publicGateway: boolean;
}

/**
 * The app's flags over the data folder's saved settings (docs/settings.md): read here because the app picks
 * the port itself (a free one when the saved one is taken, kept across restarts of the service). A broken
 * settings.json is an error naming the file and the setting, as the service's own start would give.
 */
export async function desktopServicePlan(config: ServiceConfig): Promise<DesktopServicePlan> {
  const saved = await readSavedSettings(new SettingsFile(dataFolderPaths(config.dataDir).settings), SERVER_SETTINGS);
  return {
    preferredPort: config.port ?? saved.port ?? DEFAULTS.port,
    portPinned: config.port !== undefined,
    publicGatewayFlag: config.publicGateway === true,
    publicGateway: config.publicGateway ?? saved.public_gateway ?? SERVER_SETTINGS.public_gateway.fallback,
  };
}

function splitFlag(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return eq === -1 ? [arg, undefined] : [arg.slice(0, eq), arg.slice(eq + 1)];
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new Error(`--port must be an integer from 0 to 65535, got ${JSON.stringify(value)}`);
  return port;
}
