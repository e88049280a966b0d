import { resolve } from 'node:path';
import { defaultConfig, type ServiceConfig } from '../base/config.js';

/**
 * The desktop's service settings: the defaults `pinfold serve` uses (same data folder, so both see the
 * same repo), with `--data DIR`, `--port N` and `--public-gateway` honoured when the app is launched with
 * them (as `pinfold serve` takes them). Electron and Chromium put their own switches on the command line
 * too; anything else is ignored, not an error.
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

function splitFlag(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return eq === -1 ? [arg, undefined] : [arg.slice(0, eq), arg.slice(eq + 1)];
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new Error(`--port must be an integer from 0 to 65535, got ${JSON.stringify(value)}`);
  return port;
}
