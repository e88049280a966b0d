import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(join(root, dir), { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name)).map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

// A value import of 'electron' (not `import type`), or a require of it.
const ELECTRON_VALUE_IMPORT = /^\s*import\s+(?!type\b)[^;]*from\s+['"]electron['"]|require\(\s*['"]electron['"]\s*\)/m;

describe('electron stays at the edge', () => {
  it('only the entry and the preload load electron at run time, so everything else runs under Node', async () => {
    const loaders: string[] = [];
    for (const file of await filesUnder('main')) {
      if (ELECTRON_VALUE_IMPORT.test(await readFile(join(root, file), 'utf8'))) loaders.push(file);
    }
    expect(loaders.sort()).toEqual(['main/desktop/main.ts', 'main/desktop/preload/preload.ts']);
  });

  it('no test imports the Electron entry or the preload source', async () => {
    const offenders: string[] = [];
    for (const file of await filesUnder('test')) {
      const text = await readFile(join(root, file), 'utf8');
      if (/from\s+['"][^'"]*desktop\/(main|preload\/preload)\.js['"]/.test(text) || ELECTRON_VALUE_IMPORT.test(text)) offenders.push(file);
    }
    expect(offenders).toEqual([]);
  });
});
