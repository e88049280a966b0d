import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/account-api.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';
import { makeTempDir } from '../helpers/test-server.js';

/**
 * The public compliance suite of the IPFS Pinning Service API (@ipfs-shipyard/pinning-service-compliance, the one
 * pinning services publish their reports from) against a real `pinfold serve` on port 0: every check passes. Its
 * checks use inline CIDs of random text, so nothing needs a Kubo node (the package's `kubo` dependency, whose
 * install script would download one, is denied in package.json's allowScripts); its schemas come from
 * test/fixtures through test/helpers/psa-spec-offline.ts.
 */

const SUITE = join(repoRoot, 'node_modules', '@ipfs-shipyard', 'pinning-service-compliance', 'dist', 'src', 'index.js');
const PRELOAD = join(repoRoot, 'test', 'helpers', 'psa-spec-offline.ts');
/** The suite's checks (src/index.ts: validatePinningService), each a line of its summary. */
const CHECKS = 9;

interface SuiteRun {
  code: number | null;
  output: string;
}

function runSuite(endpoint: string, token: string): Promise<SuiteRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', PRELOAD, SUITE, '-s', endpoint, token], {
      // From the repository, where `--import tsx` resolves (the suite's git-rev then names this checkout's revision in its report header).
      cwd: repoRoot,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('Pinning Service API compliance suite (contract section 11)', () => {
  let dataDir: string;
  let serve: ServeProcess;
  let url: string;
  beforeAll(async () => {
    dataDir = await makeTempDir();
    serve = startServe(['--data', dataDir, '--port', '0']);
    url = await serve.listening();
  });
  afterAll(async () => {
    serve.child.kill('SIGTERM');
    await serve.exited();
    await rm(dataDir, { recursive: true, force: true });
  });

  // The suite sends one request a second (its p-queue), some fifty in all.
  it('passes every check with the owner key’s token', { timeout: 180_000 }, async () => {
    const owner = JSON.parse(await readFile(join(dataDir, 'owner-key.json'), 'utf8')) as { access_key: string; access_secret: string };
    const run = await runSuite(`${url}/psa`, `${owner.access_key}.${owner.access_secret}`);
    const summary = /Summary \((\d+)\/(\d+) successful\)/.exec(run.output);
    // A failing check is named by its summary line (❌ <title>), and its failed expectations and errors follow.
    const failures = run.output.split('\n').filter((line) => /❌|⚠️|\[error\]/.test(line));
    expect({ failures, summary: summary?.[0] ?? `no summary; the suite said:\n${run.output}` }).toEqual({
      failures: [],
      summary: `Summary (${CHECKS}/${CHECKS} successful)`,
    });
    expect(run.code).toBe(0);
  });
});
