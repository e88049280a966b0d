import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Builds the renderer into dist/renderer, which the compiled `pinfold serve` child serves. */
export function buildRenderer(): void {
  const vite = join(repoRoot, 'node_modules/vite/bin/vite.js');
  const result = spawnSync(process.execPath, [vite, 'build'], { cwd: repoRoot, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`renderer build failed: ${result.stdout}${result.stderr}`);
}
