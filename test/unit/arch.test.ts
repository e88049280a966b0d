import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  importsOf,
  importViolations,
  KIT_DIRS,
  KIT_FREE_PLACES,
  kitReadViolations,
  LAYERED_DIRS,
  LAYERS,
  layerOf,
  repoRoot,
  requestInputViolations,
  sourceFiles,
  textFiles,
  type SourceFile,
} from './arch-rules.js';

/**
 * The rules of docs/architecture.md over the repository, and over known-bad files to prove that
 * each rule fails when broken (a checker that passes everything would pass the first block too).
 */

/** These two hold the rules' patterns and the known-bad examples below, which name the kit on purpose. */
const CHECKER_FILES = ['test/unit/arch.test.ts', 'test/unit/arch-rules.ts'];

const file = (path: string, text: string): SourceFile => ({ path, text });

describe('architecture rules over the repository', () => {
  it('every import follows the layer order and package ownership, and every file has a layer', () => {
    expect(importViolations(sourceFiles(LAYERED_DIRS))).toEqual([]);
  });

  it('nothing reads the team kit beside the repository', () => {
    const files = textFiles(KIT_FREE_PLACES.filter((place) => existsSync(join(repoRoot, place))));
    expect(files.some((f) => f.path === '.ci/run')).toBe(true);
    expect(kitReadViolations(files.filter((f) => !CHECKER_FILES.includes(f.path)))).toEqual([]);
  });

  it('the routes read their query, path parameters and body only through their schemas', () => {
    const files = sourceFiles(['main/http']);
    expect(files.some((f) => f.path === 'main/http/routes/sync.ts')).toBe(true);
    expect(requestInputViolations(files)).toEqual([]);
  });

  it("the repository has no folder of the kit's names under its own shared/", () => {
    // The kit rule treats any path into shared/<kit folder> as a path out of the repository.
    for (const dir of KIT_DIRS) expect(existsSync(join(repoRoot, 'shared', dir)), `shared/${dir}`).toBe(false);
  });
});

describe('each rule fails when broken', () => {
  const violationsOf = (...files: SourceFile[]) => importViolations(files);

  it('a layer imported upwards', () => {
    expect(violationsOf(file('main/base/config.ts', "import { startServer } from '../http/server.js';"))).toEqual([
      'main/base/config.ts imports main/http/server.js (main/base may not import main/http)',
    ]);
    expect(
      violationsOf(file('main/http/server.ts', "import type { Plan } from '../../shared/api-types.js';\nimport { loadConfig } from '../base/config.js';")),
    ).toEqual([]);
  });

  it('main/base importing any domain of main/', () => {
    const domains = Object.keys(LAYERS).filter((layer) => layer.startsWith('main/') && layer !== 'main/base');
    expect(domains).toContain('main/store');
    for (const domain of domains) {
      const folder = domain.slice('main/'.length);
      expect(violationsOf(file('main/base/events.ts', `import type { X } from '../${folder}/x.js';`)), domain).toEqual([
        `main/base/events.ts imports ${domain}/x.js (main/base may not import ${domain})`,
      ]);
    }
    expect(violationsOf(file('main/base/errors.ts', "import { ErrorCodes } from '../../shared/error-codes.js';"))).toEqual([]);
  });

  it('storage or the building blocks importing the API types', () => {
    expect(violationsOf(file('main/store/repositories/pins.ts', "import type { PinStatus } from '../../../shared/api-types.js';"))).toEqual([
      'main/store/repositories/pins.ts imports shared/api-types.js (main/store imports no API types)',
    ]);
    expect(violationsOf(file('main/store/queries/pins.ts', "const types = await import('../../../shared/api-types.js');"))).toEqual([
      'main/store/queries/pins.ts imports shared/api-types.js (main/store imports no API types)',
    ]);
    expect(violationsOf(file('main/base/events.ts', "import type { PinRecord } from '../../shared/api-types.js';"))).toEqual([
      'main/base/events.ts imports shared/api-types.js (main/base imports no API types)',
    ]);
    // The rest of shared/ stays open to them, and the domains above storage use the API types.
    expect(violationsOf(file('main/store/blocks.ts', "import { ErrorCodes } from '../../shared/error-codes.js';"))).toEqual([]);
    expect(violationsOf(file('main/pins/pins.ts', "import type { PinStatus } from '../../shared/api-types.js';"))).toEqual([]);
  });

  it('an owned package used elsewhere, and Node modules in browser code', () => {
    expect(violationsOf(file('main/accounts/usage.ts', "import Database from 'better-sqlite3';"))).toEqual([
      'main/accounts/usage.ts imports better-sqlite3, which belongs to one folder only',
    ]);
    // The keychain has one home below both the CLI and the desktop (main/secrets), not the desktop alone.
    expect(violationsOf(file('main/desktop/ipc.ts', "import { AsyncEntry } from '@napi-rs/keyring';"))).toEqual([
      'main/desktop/ipc.ts imports @napi-rs/keyring, which belongs to one folder only',
    ]);
    expect(violationsOf(file('main/secrets/keychain-entry.ts', "import { AsyncEntry } from '@napi-rs/keyring';"))).toEqual([]);
    expect(violationsOf(file('main/secrets/open-secrets.ts', "import { createApp } from '../app/create-app.js';"))).toEqual([
      'main/secrets/open-secrets.ts imports main/app/create-app.js (main/secrets may not import main/app)',
    ]);
    expect(violationsOf(file('main/cli/main.ts', "const { autoUpdater } = await import('electron-updater');"))).toEqual([
      'main/cli/main.ts imports electron-updater, which belongs to one folder only',
    ]);
    expect(violationsOf(file('main/desktop/main.ts', "const { autoUpdater } = (await import('electron-updater')).default;"))).toEqual([]);
    // It loads Electron's main-process modules: never from the preload, though that is in main/desktop too.
    expect(violationsOf(file('main/desktop/preload/preload.ts', "import { autoUpdater } from 'electron-updater';"))).toEqual([
      'main/desktop/preload/preload.ts imports electron-updater, which belongs to one folder only',
    ]);
    expect(violationsOf(file('renderer/lib/format.ts', "import { readFile } from 'node:fs/promises';\nimport { join } from 'path';"))).toEqual([
      'renderer/lib/format.ts imports the Node module node:fs/promises (renderer/ and shared/ run in the browser)',
      'renderer/lib/format.ts imports the Node module path (renderer/ and shared/ run in the browser)',
    ]);
  });

  it("the window's layers imported upwards, and the request cache used outside the data layer", () => {
    expect(layerOf('renderer/data/pins.ts')).toBe('renderer/data');
    expect(layerOf('renderer/api/pins.ts')).toBe('renderer/api');
    expect(layerOf('renderer/lib/format.ts')).toBe('renderer/lib');
    expect(layerOf('renderer/pages/pins/pins-page.tsx')).toBe('renderer');
    expect(violationsOf(file('renderer/data/pins.ts', "import { useApi } from '../app/session.js';"))).toEqual([
      'renderer/data/pins.ts imports renderer/app/session.js (renderer/data may not import renderer)',
    ]);
    expect(violationsOf(file('renderer/api/pins.ts', "import { queryKeys } from '../data/query-keys.js';"))).toEqual([
      'renderer/api/pins.ts imports renderer/data/query-keys.js (renderer/api may not import renderer/data)',
    ]);
    expect(violationsOf(file('renderer/lib/throttle.ts', "import type { Timers } from '../events/event-stream.js';"))).toEqual([
      'renderer/lib/throttle.ts imports renderer/events/event-stream.js (renderer/lib may not import renderer)',
    ]);
    expect(violationsOf(file('renderer/pages/pins/pins-page.tsx', "import { useQuery } from '@tanstack/react-query';"))).toEqual([
      'renderer/pages/pins/pins-page.tsx imports @tanstack/react-query, which belongs to one folder only',
    ]);
    // Down the layers is open: pages use the data hooks, the data layer the client and the pure functions.
    expect(violationsOf(file('renderer/pages/pins/pins-page.tsx', "import { usePinList } from '../../data/pins.js';"))).toEqual([]);
    expect(
      violationsOf(
        file(
          'renderer/data/pins.ts',
          "import { useQuery } from '@tanstack/react-query';\nimport type { PinListQuery } from '../api/pins.js';\nimport { patchListPage } from '../lib/live-list.js';",
        ),
      ),
    ).toEqual([]);
  });

  it('a new top-level main/*.ts or main/ folder that matches no layer', () => {
    expect(layerOf('main/app/start-sync.ts')).toBe('main/app');
    expect(layerOf('main/cli/gc.ts')).toBe('main/cli');
    // The composition root and the command line have folders: nothing stands loose at the top of main/.
    expect(violationsOf(file('main/app.ts', ''))).toEqual(['main/app.ts belongs to no layer (place it in LAYERS and docs/architecture.md)']);
    expect(violationsOf(file('main/cli-gc.ts', ''))).toEqual(['main/cli-gc.ts belongs to no layer (place it in LAYERS and docs/architecture.md)']);
    expect(violationsOf(file('main/server.ts', ''))).toEqual(['main/server.ts belongs to no layer (place it in LAYERS and docs/architecture.md)']);
    expect(violationsOf(file('main/apply.ts', ''))).toEqual(['main/apply.ts belongs to no layer (place it in LAYERS and docs/architecture.md)']);
    expect(violationsOf(file('main/jobs/queue.ts', ''))).toEqual(['main/jobs/queue.ts belongs to no layer (place it in LAYERS and docs/architecture.md)']);
    expect(violationsOf(file('main/http/jobs.ts', "import { queue } from '../jobs/queue.js';"))).toEqual([
      'main/http/jobs.ts imports main/jobs/queue.js, which belongs to no layer',
    ]);
  });

  it('the preload importing the service', () => {
    const preload = 'main/desktop/preload/preload.ts';
    expect(
      violationsOf(file(preload, "import { contextBridge } from 'electron';\nimport { BRIDGE_GLOBAL } from '../../../shared/preload-bridge.js';")),
    ).toEqual([]);
    expect(violationsOf(file(preload, "import { createApp } from '../../app/create-app.js';"))).toEqual([
      `${preload} imports main/app/create-app.js (main/desktop/preload may not import main/app)`,
    ]);
    expect(violationsOf(file(preload, "import { logger } from '../../base/logger.js';"))).toEqual([
      `${preload} imports main/base/logger.js (main/desktop/preload may not import main/base)`,
    ]);
    expect(violationsOf(file(preload, "import { IpcChannels } from '../ipc.js';"))).toEqual([
      `${preload} imports main/desktop/ipc.js (main/desktop/preload may not import main/desktop)`,
    ]);
  });

  it('the block store implementation or the block index imported past their seam', () => {
    expect(violationsOf(file('main/content/import/block-target.ts', "import { PinfoldBlockstore } from '../../store/blockstore/blockstore.js';"))).toEqual([
      'main/content/import/block-target.ts imports main/store/blockstore/blockstore.js (behind a seam: main/content may not import main/store/blockstore/)',
    ]);
    expect(violationsOf(file('main/http/routes/uploads.ts', "import type { PinfoldBlockstore } from '../../store/blockstore/blockstore.js';"))).toEqual([
      'main/http/routes/uploads.ts imports main/store/blockstore/blockstore.js (behind a seam: main/http may not import main/store/blockstore/)',
    ]);
    expect(violationsOf(file('main/content/import/block-target.ts', "import type { Blocks } from '../../store/blocks.js';"))).toEqual([]);
    expect(violationsOf(file('main/app/create-app.ts', "import { openBlockstore } from '../store/blockstore/blockstore.js';"))).toEqual([]);
    expect(violationsOf(file('main/cli/gc.ts', "import { openBlockstore } from '../store/blockstore/blockstore.js';"))).toEqual([]);
    expect(violationsOf(file('main/store/db/blocks.ts', "import { multihashKey } from '../blockstore/pack-batch.js';"))).toEqual([]);
    // The block index is reached through the block store only, though it lives in the metadata database.
    expect(violationsOf(file('main/pins/gc.ts', "import { listBlocksAfter } from '../store/queries/block-index.js';"))).toEqual([
      'main/pins/gc.ts imports main/store/queries/block-index.js (behind a seam: main/pins may not import main/store/queries/)',
    ]);
    expect(violationsOf(file('main/store/blockstore/pack-recovery.ts', "import { listPacks } from '../queries/block-index.js';"))).toEqual([]);
  });

  it('the S3 block store imported past its seam, or its client imported outside it', () => {
    expect(violationsOf(file('main/http/routes/uploads.ts', "import { openObjectBlockstore } from '../../store/objects/object-blockstore.js';"))).toEqual([
      'main/http/routes/uploads.ts imports main/store/objects/object-blockstore.js (behind a seam: main/http may not import main/store/objects/)',
    ]);
    expect(violationsOf(file('main/app/block-store.ts', "import { openObjectBlockstore } from '../store/objects/object-blockstore.js';"))).toEqual([]);
    expect(violationsOf(file('main/pins/gc.ts', "import { S3Client } from '@aws-sdk/client-s3';"))).toEqual([
      'main/pins/gc.ts imports @aws-sdk/client-s3, which belongs to one folder only',
    ]);
    expect(violationsOf(file('main/store/objects/s3-client.ts', "import { S3Client } from '@aws-sdk/client-s3';"))).toEqual([]);
  });

  it('the metadata engine imported past the repositories', () => {
    expect(violationsOf(file('main/pins/pins.ts', "import { pinOf } from '../store/db/pins-queries.js';"))).toEqual([
      'main/pins/pins.ts imports main/store/db/pins-queries.js (behind a seam: main/pins may not import main/store/db/)',
    ]);
    expect(violationsOf(file('main/http/server.ts', "import type { Db } from '../store/db/database.js';"))).toEqual([
      'main/http/server.ts imports main/store/db/database.js (behind a seam: main/http may not import main/store/db/)',
    ]);
    expect(violationsOf(file('main/pins/pins.ts', "import type { PinRow } from '../store/repositories/pins.js';"))).toEqual([]);
    expect(violationsOf(file('main/app/create-app.ts', "import { sqliteStore } from '../store/db/sqlite-store.js';"))).toEqual([]);
    expect(violationsOf(file('main/store/db/sqlite-store.ts', "import * as pins from '../queries/pins.js';"))).toEqual([]);
    // The queries both engines run, and the template they are written in, are the engines' alone.
    expect(violationsOf(file('main/pins/pins.ts', "import { pinOf } from '../store/queries/pins.js';"))).toEqual([
      'main/pins/pins.ts imports main/store/queries/pins.js (behind a seam: main/pins may not import main/store/queries/)',
    ]);
    expect(violationsOf(file('main/http/server.ts', "import { sql } from '../store/sql/sql.js';"))).toEqual([
      'main/http/server.ts imports main/store/sql/sql.js (behind a seam: main/http may not import main/store/sql/)',
    ]);
    expect(violationsOf(file('main/store/pg/modules.ts', "import * as pins from '../queries/pins.js';"))).toEqual([]);
    // The block index's repository is the block store's, like its queries.
    expect(violationsOf(file('main/pins/gc.ts', "import type { BlockIndexRepository } from '../store/repositories/block-index.js';"))).toEqual([
      'main/pins/gc.ts imports main/store/repositories/block-index.js (behind a seam: main/pins may not import main/store/repositories/block-index)',
    ]);
  });

  it('main/ importing test/', () => {
    expect(violationsOf(file('main/http/server.ts', "import { startTestServer } from '../../test/helpers/test-server.js';"))).toEqual([
      'main/http/server.ts imports test/helpers/test-server.js (nothing outside test/ imports the tests)',
    ]);
    expect(violationsOf(file('main/app/create-app.ts', "const kit = await import('../../test/helpers/dns-server.js');"))).toEqual([
      'main/app/create-app.ts imports test/helpers/dns-server.js (nothing outside test/ imports the tests)',
    ]);
  });

  it('createRequire-based requires count as imports', () => {
    const atOnce = "import { createRequire } from 'node:module';\nconst Database = createRequire(import.meta.url)('better-sqlite3');";
    expect(importsOf(atOnce)).toContain('better-sqlite3');
    expect(violationsOf(file('main/pins/gc.ts', atOnce))).toEqual(['main/pins/gc.ts imports better-sqlite3, which belongs to one folder only']);
    const named = "import module from 'node:module';\nconst load = module.createRequire(import.meta.url);\nconst server = load('../http/server.js');";
    expect(violationsOf(file('main/store/blocks.ts', named))).toEqual([
      'main/store/blocks.ts imports main/http/server.js (main/store may not import main/http)',
    ]);
    const aliased = "import { createRequire as makeRequire } from 'node:module';\nconst req = makeRequire(import.meta.url);\nreq('chokidar');";
    expect(violationsOf(file('main/sync/runner.ts', aliased))).toEqual(['main/sync/runner.ts imports chokidar, which belongs to one folder only']);
  });

  it('a route reading its request other than through requestInput, or casting it', () => {
    const route = 'main/http/routes/sync.ts';
    expect(
      requestInputViolations([
        file(
          route,
          [
            'const { id } = requestInput(SyncIdQuery, request.query);',
            'const body = requestInput(SyncAddBody, await readJsonObject(request.raw));',
            'const { cid } = requestInput(PinPathParams, request.params).cid;',
            'const page = requestInput(\n  PageQuery,\n  request.query,\n);',
          ].join('\n'),
        ),
      ]),
    ).toEqual([]);
    expect(
      requestInputViolations([
        file(
          route,
          [
            'const query = request.query as Query;',
            'const { cid } = request.params as { cid: string };',
            "const id = parseSyncId(request['query'].id);",
            'const name = request.body;',
            'const { query, params } = request;',
            'const wait = parseWait(requestInput(SyncAddQuery, request.query.wait));',
            'const raw = input as Record<string, unknown>;',
          ].join('\n'),
        ),
      ]),
    ).toEqual([
      `${route}:1 reads request.query other than through requestInput(Schema, request.query)`,
      `${route}:2 reads request.params other than through requestInput(Schema, request.params)`,
      `${route}:3 reads request.query other than through requestInput(Schema, request.query)`,
      `${route}:4 reads request.body other than through requestInput(Schema, request.body)`,
      `${route}:6 reads request.query other than through requestInput(Schema, request.query)`,
      `${route}:5 takes query out of the request; read it through requestInput`,
      `${route}:1 casts with "as Query"; a request's input is typed by its schema (requestInput)`,
      `${route}:7 casts with "as Record<string, unknown>"; a request's input is typed by its schema (requestInput)`,
    ]);
    // Step 2's address check reads the query too; files that read no request are not held to it.
    expect(requestInputViolations([file('main/http/upload-step-two.ts', 'const q = request.query as Record<string, unknown>;')])).toHaveLength(2);
    expect(requestInputViolations([file('main/http/gateway/dispatcher.ts', 'const q = request.query as Record<string, unknown>;')])).toEqual([]);
  });

  it('a read of the team kit beside the repository', () => {
    // The samples are assembled from parts so that this file does not itself read as a kit path to a grep.
    const kit = (folder: string): string => ['shared', folder].join('/');
    const quoted = "'shared'";
    expect(
      kitReadViolations([
        file('test/helpers/dns-server.ts', `const dir = new URL('../../../${kit('fixtures')}/gateway-conformance/', import.meta.url);`),
        file('test/integration/fixtures-import.test.ts', `const fixtures = join(repoRoot, '..', ${quoted}, 'fixtures');`),
        file('.ci/run', `keyring="../${kit('tools')}/with-keyring.sh"`),
        file('scripts/spec.ts', `readFileSync('/work/${kit('spec')}/service-spec.md')`),
        file('test/unit/kit.ts', "const kit = resolve(here, '../../../shared');"),
      ]),
    ).toEqual([
      `test/helpers/dns-server.ts reads the team kit (${kit('fixtures')}); use what the repository holds`,
      'test/helpers/dns-server.ts climbs out of the repository to ../../../shared',
      "test/integration/fixtures-import.test.ts reads the team kit (shared', 'fixtures); use what the repository holds",
      `.ci/run reads the team kit (${kit('tools')}); use what the repository holds`,
      `scripts/spec.ts reads the team kit (${kit('spec')}); use what the repository holds`,
      'test/unit/kit.ts climbs out of the repository to ../../../shared',
    ]);
    // The repository's own shared/ is fine from any depth.
    expect(
      kitReadViolations([
        file('test/unit/content/read/x.test.ts', "import type { Plan } from '../../../../shared/api-types.js';"),
        file('main/http/envelope.ts', "import type { Envelope } from '../../shared/api-types.js';"),
      ]),
    ).toEqual([]);
  });
});
