import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder holding Pinfold's package.json, found from this module's location, so the same code
 * finds `dist/renderer` whether it runs from source (tests), from `dist/` or inside the packaged app.
 */
export function packageRoot(fromUrl: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(fromUrl));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + fileURLToPath(fromUrl));
    dir = parent;
  }
}

/** Pinfold's version, as its package.json gives it (the service facts of the Settings page). */
export function packageVersion(root: string = packageRoot()): string {
  const parsed = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: unknown };
  if (typeof parsed.version !== 'string') throw new Error(`${join(root, 'package.json')} has no version`);
  return parsed.version;
}
