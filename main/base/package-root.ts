import { existsSync } from 'node:fs';
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
