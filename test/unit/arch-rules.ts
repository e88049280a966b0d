import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The house rules of docs/architecture.md as a checker over a set of files, so that the arch test
 * can run it over the repository and over known-bad files alike. Paths are repository-relative with
 * forward slashes.
 */
export interface SourceFile {
  readonly path: string;
  readonly text: string;
}

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Which layers each layer may import; a layer always may import itself. */
export const LAYERS: Readonly<Record<string, readonly string[]>> = {
  shared: [],
  // Generic building blocks only: base imports no domain (nothing under main/ but itself).
  'main/base': ['shared'],
  'main/store': ['shared', 'main/base'],
  'main/content': ['shared', 'main/base', 'main/store'],
  // Outbound HTTP to the IPFS network (trustless gateways, delegated routing): knows blocks and DAGs, not accounts.
  'main/network': ['shared', 'main/base', 'main/store', 'main/content'],
  'main/accounts': ['shared', 'main/base', 'main/store', 'main/content', 'main/network'],
  'main/pins': ['shared', 'main/base', 'main/store', 'main/content', 'main/network', 'main/accounts'],
  'main/names': ['shared', 'main/base', 'main/store', 'main/content', 'main/network', 'main/accounts', 'main/pins'],
  'main/folders': ['shared', 'main/base', 'main/store', 'main/content', 'main/network', 'main/accounts', 'main/pins'],
  'main/sync': ['shared', 'main/base', 'main/store', 'main/content', 'main/network', 'main/accounts', 'main/pins', 'main/names', 'main/folders'],
  'main/http': ['shared', 'main/base', 'main/store', 'main/content', 'main/network', 'main/accounts', 'main/pins', 'main/names', 'main/folders', 'main/sync'],
  // Where a data folder's master key and owner key live (secrets.json, files or the OS keychain).
  'main/secrets': ['shared', 'main/base', 'main/store', 'main/content', 'main/network', 'main/accounts'],
  'main/app': [
    'shared',
    'main/base',
    'main/store',
    'main/content',
    'main/network',
    'main/accounts',
    'main/pins',
    'main/names',
    'main/folders',
    'main/sync',
    'main/http',
    'main/secrets',
  ],
  // The service process: what `pinfold serve` and the desktop's utility process run, and their messages.
  'main/service': [
    'shared',
    'main/base',
    'main/store',
    'main/content',
    'main/network',
    'main/accounts',
    'main/pins',
    'main/names',
    'main/folders',
    'main/sync',
    'main/http',
    'main/secrets',
    'main/app',
  ],
  'main/cli': [
    'shared',
    'main/base',
    'main/store',
    'main/content',
    'main/network',
    'main/accounts',
    'main/pins',
    'main/names',
    'main/folders',
    'main/sync',
    'main/http',
    'main/secrets',
    'main/app',
    'main/service',
  ],
  'main/desktop': [
    'shared',
    'main/base',
    'main/store',
    'main/content',
    'main/network',
    'main/accounts',
    'main/pins',
    'main/names',
    'main/folders',
    'main/sync',
    'main/http',
    'main/secrets',
    'main/app',
    'main/service',
  ],
  // The preload runs in the page's sandboxed preload context: the bridge types, nothing of the service.
  'main/desktop/preload': ['shared'],
  // The window: the typed API client and the pure functions at the bottom, the data layer (the request
  // cache and its hooks) on them, and the app, events, components and pages (the rest of renderer/) above.
  'renderer/api': ['shared'],
  'renderer/lib': ['shared', 'renderer/api'],
  'renderer/data': ['shared', 'renderer/api', 'renderer/lib'],
  renderer: ['shared', 'renderer/api', 'renderer/lib', 'renderer/data'],
};

/** Packages that only one place may import. */
export const OWNED_PACKAGES: Readonly<Record<string, (file: string) => boolean>> = {
  electron: (f) => f.startsWith('main/desktop/'),
  '@napi-rs/keyring': (f) => f === 'main/secrets/keychain-entry.ts',
  // It loads Electron itself: only the desktop's main process may.
  'electron-updater': (f) => f.startsWith('main/desktop/') && !f.startsWith('main/desktop/preload/'),
  'better-sqlite3': (f) => f.startsWith('main/store/db/'),
  pg: (f) => f.startsWith('main/store/pg/'),
  '@aws-sdk/client-s3': (f) => f.startsWith('main/store/objects/'),
  chokidar: (f) => f === 'main/sync/watcher.ts',
  // The request cache is the data layer's: pages and the app use its hooks, never queries of their own.
  '@tanstack/react-query': (f) => f.startsWith('renderer/data/'),
};

/**
 * Paths (a folder, or a file without its extension) behind a seam: only the listed layers may import
 * them. The block store's implementation is opened by the composition root and the CLI; every other
 * layer uses the block interface, main/store/blocks.ts, so that another implementation can take its
 * place. The block index's queries are the block store's alone (the index shares the metadata database).
 * The metadata engine (main/store/db: SQLite, its queries and migrations) is opened by the composition
 * root, the CLI and the secrets module (which peeks at a folder's sealed data before anything is written);
 * every domain reaches the metadata through the repository interfaces, main/store/repositories/. The
 * queries both engines run (main/store/queries, written in main/store/sql's template) are the engines' alone.
 */
export const SEALED_PATHS: Readonly<Record<string, readonly string[]>> = {
  'main/store/blockstore/': ['main/store', 'main/app', 'main/cli'],
  'main/store/repositories/block-index': ['main/store'],
  'main/store/db/': ['main/store', 'main/app', 'main/cli', 'main/secrets'],
  'main/store/pg/': ['main/store', 'main/app', 'main/cli'],
  'main/store/queries/': ['main/store'],
  'main/store/sql/': ['main/store'],
  // The S3 block store (`--blocks s3://…`): a second implementation of the block seam, opened like the first.
  'main/store/objects/': ['main/store', 'main/app', 'main/cli'],
};

/**
 * Files (without extension) that the listed layers may not import, though their layer order allows it. The
 * API's wire types stay out of the generic building blocks and of storage: the store keeps rows of its own
 * (a pin's StoredPinStatus), the domains map them to what the API answers.
 */
export const KEPT_OUT: Readonly<Record<string, readonly string[]>> = {
  'shared/api-types': ['main/base', 'main/store'],
};

/** The folders of the layered code: every file under them belongs to a layer. */
export const LAYERED_DIRS = ['main', 'renderer', 'shared'];

/** A file's layer, or null when it belongs to none (a new folder or top-level file nobody placed). */
export function layerOf(file: string): string | null {
  if (file.startsWith('shared/')) return 'shared';
  const part = /^renderer\/(api|lib|data)\//.exec(file)?.[1];
  if (part !== undefined) return `renderer/${part}`;
  if (file.startsWith('renderer/')) return 'renderer';
  if (file.startsWith('main/desktop/preload/')) return 'main/desktop/preload';
  const folder = /^main\/([a-z]+)\//.exec(file)?.[1];
  const layer = folder === undefined ? null : `main/${folder}`;
  return layer !== null && layer in LAYERS ? layer : null;
}

const CALL_ARG = String.raw`\(\s*['"]([^'"]+)['"]\s*\)`;

/** Every module a file loads: import/export from, side-effect imports, import(), require() and createRequire. */
export function importsOf(text: string): string[] {
  const specs = new Set<string>();
  const add = (pattern: RegExp) => {
    for (const match of text.matchAll(pattern)) specs.add(match[1] as string);
  };
  add(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]/g);
  add(/(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g);
  add(new RegExp(String.raw`\b(?:import|require)` + CALL_ARG, 'g'));
  // A require made by createRequire (or an alias of it) loads modules as well: called at once,
  // createRequire(import.meta.url)('x'), or kept under any name, const load = createRequire(...); load('x').
  const factories = ['createRequire', ...[...text.matchAll(/\bcreateRequire\s+as\s+(\w+)/g)].map((match) => match[1] as string)];
  for (const factory of factories) {
    add(new RegExp(String.raw`\b${factory}\s*\([^)]*\)\s*` + CALL_ARG, 'g'));
    for (const made of text.matchAll(new RegExp(String.raw`\b(\w+)\s*=\s*(?:\w+\.)?${factory}\s*\(`, 'g'))) {
      add(new RegExp(String.raw`\b${made[1] as string}\s*` + CALL_ARG, 'g'));
    }
  }
  return [...specs];
}

const packageOf = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string));

/** Layer order, package ownership, browser code without Node, no file outside a layer, no imports of test/. */
export function importViolations(files: readonly SourceFile[]): string[] {
  const problems: string[] = [];
  for (const file of files) {
    const layer = layerOf(file.path);
    if (!layer) {
      problems.push(`${file.path} belongs to no layer (place it in LAYERS and docs/architecture.md)`);
      continue;
    }
    for (const spec of importsOf(file.text)) {
      if (spec.startsWith('.')) {
        const target = relative(repoRoot, resolve(repoRoot, dirname(file.path), spec))
          .split(sep)
          .join('/');
        if (target === 'test' || target.startsWith('test/')) {
          problems.push(`${file.path} imports ${target} (nothing outside test/ imports the tests)`);
          continue;
        }
        const sealed = Object.entries(SEALED_PATHS).find(([folder]) => target.startsWith(folder));
        if (sealed && !sealed[1].includes(layer)) problems.push(`${file.path} imports ${target} (behind a seam: ${layer} may not import ${sealed[0]})`);
        if (KEPT_OUT[target.replace(/\.(js|ts)$/, '')]?.includes(layer)) problems.push(`${file.path} imports ${target} (${layer} imports no API types)`);
        const targetLayer = layerOf(target.replace(/\.js$/, '.ts'));
        if (targetLayer === layer) continue;
        if (!targetLayer) problems.push(`${file.path} imports ${target}, which belongs to no layer`);
        else if (!(LAYERS[layer] ?? []).includes(targetLayer)) problems.push(`${file.path} imports ${target} (${layer} may not import ${targetLayer})`);
        continue;
      }
      const pkg = packageOf(spec);
      const owner = OWNED_PACKAGES[pkg];
      if (owner && !owner(file.path)) problems.push(`${file.path} imports ${pkg}, which belongs to one folder only`);
      // Node's own modules: code that runs in the browser (renderer/, shared/) cannot load them.
      const builtin = spec.startsWith('node:') || builtinModules.includes(pkg);
      if ((layer === 'shared' || layer === 'renderer' || layer.startsWith('renderer/')) && builtin)
        problems.push(`${file.path} imports the Node module ${spec} (renderer/ and shared/ run in the browser)`);
    }
  }
  return problems;
}

/** Folders and files that must not read the team kit (../shared beside the repository). */
export const KIT_FREE_PLACES = [
  ...['main', 'renderer', 'shared', 'test', 'scripts', '.ci', 'bin', 'build'],
  ...['package.json', 'vitest.config.ts', 'vite.config.ts', 'vite.preload.config.ts', 'electron-builder.yml'],
  ...['tsconfig.json', 'tsconfig.base.json', 'tsconfig.build.json', 'tsconfig.node.json', 'tsconfig.web.json', 'tsconfig.web-test.json'],
];

/**
 * The kit's folders. The repository's own shared/ has none of them (the arch test checks), so any path
 * naming one, with slashes or as path.join segments, points outside the repository.
 */
export const KIT_DIRS = ['fixtures', 'tools', 'spec', 'docs'];
const KIT_PATH = new RegExp(`\\bshared(?:[/\\\\]|['"]\\s*,\\s*['"])(${KIT_DIRS.join('|')})\\b`, 'g');
const CLIMB_TO_SHARED = /((?:\.\.\/)+)shared\b/g;

/** Reads of the team kit: a path into one of its folders, or a relative path that climbs out of the repository to a `shared` folder. */
export function kitReadViolations(files: readonly SourceFile[]): string[] {
  const problems: string[] = [];
  for (const file of files) {
    for (const match of file.text.matchAll(KIT_PATH)) problems.push(`${file.path} reads the team kit (${match[0]}); use what the repository holds`);
    for (const match of file.text.matchAll(CLIMB_TO_SHARED)) {
      const target = relative(repoRoot, resolve(repoRoot, dirname(file.path), match[1] as string, 'shared'));
      if (target.startsWith('..')) problems.push(`${file.path} climbs out of the repository to ${match[0]}`);
    }
  }
  return problems;
}

/** Every file under the given repository folders (or the given files), repository-relative. */
function pathsUnder(places: readonly string[]): string[] {
  const paths: string[] = [];
  const visit = (path: string) => {
    if (!statSync(join(repoRoot, path)).isDirectory()) paths.push(path);
    else for (const name of readdirSync(join(repoRoot, path))) visit(`${path}/${name}`);
  };
  for (const place of places) visit(place);
  return paths;
}

const read = (path: string): SourceFile => ({ path, text: readFileSync(join(repoRoot, path), 'utf8') });

/** Source files (.ts, .tsx) under the given folders, as the import rules see them. */
export function sourceFiles(dirs: readonly string[]): SourceFile[] {
  return pathsUnder(dirs)
    .filter((path) => /\.(ts|tsx)$/.test(path) && !path.endsWith('.d.ts'))
    .map(read);
}

/** Every text file under the given places; the fixtures are third-party data copied verbatim, so they are left out. */
export function textFiles(places: readonly string[]): SourceFile[] {
  return pathsUnder(places)
    .filter((path) => !path.startsWith('test/fixtures/') && !/\.(png|ico|icns|woff2?)$/.test(path))
    .map(read);
}

/**
 * The files that read a request's query, path parameters and JSON body, which they do only through the
 * route's schema (main/http/input/request-input.ts): `requestInput(PinAddQuery, request.query)`. Anything
 * else, a property read, a destructuring or a cast (`as Query`, `as Record<string, unknown>`), would hand
 * the domain values no schema checked.
 */
export function readsRequestInput(path: string): boolean {
  return (path.startsWith('main/http/routes/') && path.endsWith('.ts')) || path === 'main/http/upload-step-two.ts';
}

/** A read of the request's query, path parameters or body: `request.query`, `request?.params`, `request['body']`. */
const REQUEST_PART = /\b(?:request|req)\s*(?:\??\.\s*|\[\s*['"])(query|params|body)\b/g;
/** The one read allowed: the whole part as the value argument of requestInput. */
const THROUGH_SCHEMA_BEFORE = /requestInput\(\s*[\w.]+\s*,\s*$/;
const THROUGH_SCHEMA_AFTER = /^\s*,?\s*\)/;
/** `const { query } = request`: the part taken out of the request by destructuring. */
const DESTRUCTURED = /\{[^{}]*?\b(query|params|body)\b[^{}]*\}\s*=\s*(?:request|req)\b/g;
/** Casts that make an unchecked object of a request's part. */
const REQUEST_CAST = /\bas\s+(Query\b|Record<\s*string\s*,\s*unknown\s*>)/g;

const lineAt = (text: string, index: number): number => text.slice(0, index).split('\n').length;

/** Reads of a request's query, params or body outside requestInput, and casts of them, in the files that read requests. */
export function requestInputViolations(files: readonly SourceFile[]): string[] {
  const problems: string[] = [];
  for (const file of files) {
    if (!readsRequestInput(file.path)) continue;
    const { text } = file;
    for (const match of text.matchAll(REQUEST_PART)) {
      const at = match.index;
      const end = at + match[0].length;
      const throughSchema = THROUGH_SCHEMA_BEFORE.test(text.slice(Math.max(0, at - 200), at)) && THROUGH_SCHEMA_AFTER.test(text.slice(end));
      if (!throughSchema)
        problems.push(
          `${file.path}:${lineAt(text, at)} reads request.${match[1] as string} other than through requestInput(Schema, request.${match[1] as string})`,
        );
    }
    for (const match of text.matchAll(DESTRUCTURED)) {
      problems.push(`${file.path}:${lineAt(text, match.index)} takes ${match[1] as string} out of the request; read it through requestInput`);
    }
    for (const match of text.matchAll(REQUEST_CAST)) {
      problems.push(`${file.path}:${lineAt(text, match.index)} casts with "${match[0]}"; a request's input is typed by its schema (requestInput)`);
    }
  }
  return problems;
}
