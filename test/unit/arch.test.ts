import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The import rules of docs/architecture.md, derived from folder names: a layer may import only the
 * layers below it, and a few packages belong to one folder each.
 */
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const LAYERS: Record<string, readonly string[]> = {
  'shared': [],
  'main/base': ['shared'],
  'main/store': ['shared', 'main/base'],
  'main/content': ['shared', 'main/base', 'main/store'],
  'main/accounts': ['shared', 'main/base', 'main/store', 'main/content'],
  'main/pins': ['shared', 'main/base', 'main/store', 'main/content', 'main/accounts'],
  'main/names': ['shared', 'main/base', 'main/store', 'main/content', 'main/accounts', 'main/pins'],
  'main/folders': ['shared', 'main/base', 'main/store', 'main/content', 'main/accounts', 'main/pins'],
  'main/sync': ['shared', 'main/base', 'main/store', 'main/content', 'main/accounts', 'main/pins', 'main/names', 'main/folders'],
  'main/http': ['shared', 'main/base', 'main/store', 'main/content', 'main/accounts', 'main/pins', 'main/names', 'main/folders', 'main/sync'],
  'main/app': ['shared', 'main/base', 'main/store', 'main/content', 'main/accounts', 'main/pins', 'main/names', 'main/folders', 'main/sync', 'main/http'],
  'main/cli': ['shared', 'main/base', 'main/store', 'main/content', 'main/accounts', 'main/pins', 'main/names', 'main/folders', 'main/sync', 'main/http', 'main/app', 'main/cli'],
  'main/desktop': ['shared', 'main/base', 'main/store', 'main/content', 'main/accounts', 'main/pins', 'main/names', 'main/folders', 'main/sync', 'main/http', 'main/app', 'main/desktop'],
  'renderer': ['shared', 'renderer'],
};

/** Packages that only one place may import. */
const OWNED_PACKAGES: Record<string, (file: string) => boolean> = {
  'electron': (f) => f.startsWith('main/desktop/'),
  '@napi-rs/keyring': (f) => f.startsWith('main/desktop/'),
  'better-sqlite3': (f) => f.startsWith('main/store/db/'),
  'chokidar': (f) => f === 'main/sync/watcher.ts',
};

function layerOf(file: string): string | null {
  if (file.startsWith('shared/')) return 'shared';
  if (file.startsWith('renderer/')) return 'renderer';
  if (/^main\/app[a-z-]*\.ts$/.test(file)) return 'main/app';
  if (/^main\/cli[a-z-]*\.ts$/.test(file)) return 'main/cli';
  const match = /^main\/([a-z]+)\//.exec(file);
  return match ? `main/${match[1]}` : null;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(repo, dir))) {
    const path = join(dir, name);
    if (statSync(join(repo, path)).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) out.push(path.split(sep).join('/'));
  }
  return out;
}

function importsOf(file: string): string[] {
  const text = readFileSync(join(repo, file), 'utf8');
  const specs: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]/g)) specs.push(match[1] as string);
  for (const match of text.matchAll(/(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(match[1] as string);
  for (const match of text.matchAll(/(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)) specs.push(match[1] as string);
  return specs;
}

function violations(): string[] {
  const problems: string[] = [];
  const files = ['main', 'renderer', 'shared'].flatMap((dir) => sourceFiles(dir));
  for (const file of files) {
    const layer = layerOf(file);
    for (const spec of importsOf(file)) {
      if (spec.startsWith('.')) {
        const target = relative(repo, resolve(repo, dirname(file), spec)).split(sep).join('/');
        const targetLayer = layerOf(target.replace(/\.js$/, '.ts'));
        if (!layer || !targetLayer || targetLayer === layer) continue;
        if (!(LAYERS[layer] ?? []).includes(targetLayer)) problems.push(`${file} imports ${target} (${layer} may not import ${targetLayer})`);
        continue;
      }
      const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string);
      const owner = OWNED_PACKAGES[pkg];
      if (owner && !owner(file)) problems.push(`${file} imports ${pkg}, which belongs to one folder only`);
      if ((layer === 'shared' || layer === 'renderer') && (spec.startsWith('node:') || ['fs', 'path', 'os', 'crypto', 'child_process'].includes(pkg)))
        problems.push(`${file} imports the Node module ${spec} (renderer/ and shared/ run in the browser)`);
    }
  }
  return problems;
}

describe('architecture import rules', () => {
  it('every import follows the layer order and package ownership', () => {
    expect(violations()).toEqual([]);
  });

  it('the checker catches a layer imported upwards and an owned package used elsewhere', () => {
    // Guard against a checker that silently passes everything.
    expect(layerOf('main/base/config.ts')).toBe('main/base');
    expect(LAYERS['main/base']).not.toContain('main/http');
    expect(OWNED_PACKAGES['better-sqlite3']?.('main/accounts/usage.ts')).toBe(false);
    expect(OWNED_PACKAGES['chokidar']?.('main/sync/watcher.ts')).toBe(true);
    expect(importsOf('main/store/db/database.ts')).toContain('better-sqlite3');
  });
});
