import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AccountUsage, SessionKey } from '../../shared/api-types.js';
import { call, makeTempDir } from '../helpers/test-server.js';
import { runCli } from '../helpers/account-api.js';
import { LISTENING, startServe, type ServeProcess } from '../helpers/serve-process.js';

/** Issue 12: the Sign in line of `pinfold serve` and `pinfold open` (child processes, as a user runs them). */

const SIGN_IN = /^Sign in: (http:\/\/127\.0\.0\.1:\d+)\/signin\?code=([A-Za-z0-9_-]{43})$/m;

async function redeem(url: string, code: string): Promise<{ status: number; session: SessionKey | undefined }> {
  const response = await fetch(`${url}/api/v0/session?code=${code}`, { method: 'POST' });
  const body = (await response.json()) as { data?: SessionKey };
  return { status: response.status, session: body.data };
}

describe('pinfold serve prints a one-time sign-in link; pinfold open prints a fresh one', () => {
  const running: ServeProcess[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const proc of running.splice(0)) {
      if (proc.child.exitCode === null && proc.child.signalCode === null) {
        proc.child.kill('SIGKILL');
        await proc.exited();
      }
    }
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  async function serve(): Promise<{ proc: ServeProcess; url: string; dataDir: string }> {
    const dataDir = await makeTempDir('pinfold-signin-');
    dirs.push(dataDir);
    const proc = startServe(['--data', dataDir, '--port', '0']);
    running.push(proc);
    // The listening line is printed first; the Sign in line follows in the same turn.
    const url = await proc.listening(30_000, /Pinfold listening on (http:\/\/127\.0\.0\.1:\d+)\nSign in: .*\n/);
    return { proc, url, dataDir };
  }

  it('the line after "Pinfold listening on" is "Sign in: <url>/signin?code=<code>"; the code signs the owner in once; no secret is printed', async () => {
    const { proc, url, dataDir } = await serve();
    const lines = proc.stdout().split('\n');
    const listening = lines.findIndex((line) => line === `Pinfold listening on ${url}`);
    expect(listening).toBeGreaterThanOrEqual(0);
    expect(LISTENING.exec(proc.stdout())?.[1]).toBe(url);
    const match = SIGN_IN.exec(lines[listening + 1] ?? '');
    expect(match?.[1]).toBe(url);
    const code = match?.[2] as string;

    const owner = JSON.parse(readFileSync(join(dataDir, 'owner-key.json'), 'utf8')) as { access_key: string; access_secret: string };
    expect(proc.stdout() + proc.stderr()).not.toContain(owner.access_secret);

    const first = await redeem(url, code);
    expect(first.status).toBe(200);
    const stats = await call<{ data: AccountUsage }>({ url }, 'GET', '/api/v0/stats', { key: first.session ?? null });
    expect(stats.json.data).toMatchObject({ name: 'owner', plan: 'Local' });
    expect((await redeem(url, code)).status).toBe(401);
    expect(proc.stdout() + proc.stderr()).not.toContain(first.session?.access_secret);
  });

  it('pinfold open prints a fresh link for the running service (no browser without a terminal); it redeems once', async () => {
    const { proc, url, dataDir } = await serve();
    const served = SIGN_IN.exec(proc.stdout())?.[2];
    const opened = await runCli(['open', '--data', dataDir]);
    expect(opened.stderr).toBe('');
    expect(opened.code).toBe(0);
    const match = /^(http:\/\/127\.0\.0\.1:\d+)\/signin\?code=([A-Za-z0-9_-]{43})\n$/.exec(opened.stdout);
    expect(match?.[1]).toBe(url);
    expect(match?.[2]).not.toBe(served);
    expect((await redeem(url, match?.[2] as string)).status).toBe(200);
    expect((await redeem(url, match?.[2] as string)).status).toBe(401);

    const quiet = await runCli(['open', '--data', dataDir, '--no-browser']);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/signin\?code=[A-Za-z0-9_-]{43}\n$/);
  });

  it('pinfold open without a running server, with a stray argument or flag, or without the owner key, says so', async () => {
    const empty = await makeTempDir('pinfold-signin-');
    dirs.push(empty);
    const none = await runCli(['open', '--data', empty]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no running server found');
    expect(none.stdout).toBe('');
    const flag = await runCli(['open', '--bogus', 'x', '--data', empty]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('open does not take --bogus');
    const extra = await runCli(['open', 'now', '--data', empty]);
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain('open takes no arguments');

    const { dataDir } = await serve();
    await rm(join(dataDir, 'owner-key.json'));
    const keyless = await runCli(['open', '--data', dataDir]);
    expect(keyless.code).toBe(1);
    expect(keyless.stderr).toContain('no owner key');
  });
});
