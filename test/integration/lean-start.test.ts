import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/account-api.js';

const run = promisify(execFile);

/**
 * What an embedded service (the data folder's SQLite and packs, the desktop's and `pinfold serve`'s
 * default) keeps out of its heap: the PostgreSQL driver and the AWS SDK load only with `--db` and
 * `--blocks`. Every megabyte of heap is marked again by each full collection an idle service makes, so
 * these were half of the idle minute's CPU (test/bench/sync.ts). A fresh process, so nothing another test
 * loaded counts.
 */
describe('an embedded service starts lean', () => {
  it('loads neither the PostgreSQL driver nor the AWS SDK', async () => {
    const script = `
      import { createRequire } from 'node:module';
      import { mkdtempSync } from 'node:fs';
      import { tmpdir } from 'node:os';
      import { join } from 'node:path';
      const { createApp } = await import('./main/app/create-app.ts');
      const { defaultConfig } = await import('./main/base/config.ts');
      const app = await createApp({ config: defaultConfig({ dataDir: mkdtempSync(join(tmpdir(), 'pinfold-lean-')), port: 0, network: { offline: true } }), env: {} });
      await app.listen();
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      console.log(JSON.stringify({
        pg: loaded.some((path) => /node_modules\\/pg\\//.test(path)),
        aws: loaded.some((path) => /node_modules\\/@(aws-sdk|smithy)\\//.test(path)),
        fastify: loaded.some((path) => /node_modules\\/fastify\\//.test(path)),
      }));
      await app.close();
    `;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repoRoot });
    // fastify proves the probe sees what the service loads.
    expect(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}')).toEqual({ pg: false, aws: false, fastify: true });
  });
});
