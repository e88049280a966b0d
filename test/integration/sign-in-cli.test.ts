import { chmod, mkdir, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AccountUsage, SessionKey } from '../../shared/api-types.js';
import { call } from '../helpers/test-server.js';
import { runCli } from '../helpers/account-api.js';
import { fakeOpener } from '../helpers/fake-opener.js';
import { LISTENING, startServe, type ServeProcess } from '../helpers/serve-process.js';
import { tempDirs } from '../helpers/temp-dirs.js';

/**
 * Issue 12: the Sign in line of `pinfold serve` and `pinfold open` (child processes, as a user runs
 * them). Issue 22, item 1: a live code is printed only to a terminal, and the browser opener is handed
 * a private page's path, never a code, since every local user can read a process's command line.
 */

const SIGN_IN = /^Sign in: (http:\/\/127\.0\.0\.1:\d+)\/signin\?code=([A-Za-z0-9_-]{43})$/m;
const ANY_CODE = /code=[A-Za-z0-9_-]{43}/;
const onLinux = process.platform === 'linux';

async function redeem(url: string, code: string): Promise<{ status: number; session: SessionKey | undefined }> {
  const response = await fetch(`${url}/api/v0/session?code=${code}`, { method: 'POST' });
  const body = (await response.json()) as { data?: SessionKey };
  return { status: response.status, session: body.data };
}

describe('pinfold serve prints a one-time sign-in link only to a terminal; pinfold open opens one without putting it on a command line', () => {
  const running: ServeProcess[] = [];
  const dirs = tempDirs('pinfold-signin-');
  afterEach(async () => {
    for (const proc of running.splice(0)) {
      if (proc.child.exitCode === null && proc.child.signalCode === null) {
        proc.child.kill('SIGKILL');
        await proc.exited();
      }
    }
    await dirs.removeAll();
  });

  async function serve(options: { terminal?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<{ proc: ServeProcess; url: string; dataDir: string }> {
    const dataDir = await dirs.make();
    const proc = startServe(['--data', dataDir, '--port', '0'], options.env ?? {}, { terminal: options.terminal });
    running.push(proc);
    // The listening line is printed first; the Sign in line follows in the same turn.
    const url = await proc.listening(30_000, /Pinfold listening on (http:\/\/127\.0\.0\.1:\d+)\nSign in: .*\n/);
    return { proc, url, dataDir };
  }

  it('with its output not on a terminal (a log, the journal), serve prints no code: it says to run pinfold open', async () => {
    const { proc, url, dataDir } = await serve();
    const lines = proc.stdout().split('\n');
    const listening = lines.indexOf(`Pinfold listening on ${url}`);
    expect(listening).toBeGreaterThanOrEqual(0);
    expect(lines[listening + 1]).toBe(`Sign in: run \`pinfold open --data ${dataDir}\` for a one-time link (a link is printed only to a terminal)`);
    expect(proc.stdout() + proc.stderr()).not.toMatch(/code=/);
    expect(proc.stdout() + proc.stderr()).not.toMatch(/[A-Za-z0-9_-]{43}/);
  });

  it.runIf(onLinux)(
    'at a terminal, the line after "Pinfold listening on" is "Sign in: <url>/signin?code=<code>"; the code signs the owner in once; no secret is printed',
    async () => {
      const { proc, url, dataDir } = await serve({ terminal: true });
      const lines = proc.stdout().split('\n');
      const listening = lines.findIndex((line) => line === `Pinfold listening on ${url}`);
      expect(listening).toBeGreaterThanOrEqual(0);
      expect(LISTENING.exec(proc.stdout())?.[1]).toBe(url);
      const match = SIGN_IN.exec(lines[listening + 1] ?? '');
      expect(match?.[1]).toBe(url);
      const code = match?.[2] as string;

      const owner = JSON.parse(await readFile(join(dataDir, 'owner-key.json'), 'utf8')) as { access_key: string; access_secret: string };
      expect(proc.stdout() + proc.stderr()).not.toContain(owner.access_secret);

      const first = await redeem(url, code);
      expect(first.status).toBe(200);
      const stats = await call<{ data: AccountUsage }>({ url }, 'GET', '/api/v0/stats', { key: first.session ?? null });
      expect(stats.json.data).toMatchObject({ name: 'owner', plan: 'Local' });
      expect((await redeem(url, code)).status).toBe(401);
      expect(proc.stdout() + proc.stderr()).not.toContain(first.session?.access_secret);
    },
  );

  it.runIf(onLinux)(
    'pinfold open at a terminal: while the browser opener runs no process holds the code on its command line; it gets a 0600 page in a 0700 folder that signs in once, gone once used',
    async () => {
      const runtime = join(await dirs.make(), 'run');
      await mkdir(runtime);
      await chmod(runtime, 0o700);
      const { url, dataDir } = await serve({ env: { XDG_RUNTIME_DIR: runtime } });
      const opener = await fakeOpener(await dirs.make());

      const opened = await runCli(['open', '--data', dataDir], opener.env(), { terminal: true });
      const seen = await opener.ran();
      // What every local user could read while it ran: no command line holds a code.
      for (const line of seen.commandLines) expect(line).not.toMatch(ANY_CODE);
      expect(opened.stdout).toContain('Opened Pinfold in your browser with a one-time sign-in page.');
      expect(opened.stdout).not.toMatch(ANY_CODE);
      expect(opened.code).toBe(0);

      // The opener was handed one argument: the page in the runtime folder, in a folder of its own.
      expect(seen.args).toHaveLength(1);
      const page = seen.args[0] as string;
      expect(dirname(dirname(page))).toBe(runtime);
      expect(basename(dirname(page))).toMatch(/^pinfold-sign-in-/);
      expect(basename(page)).toMatch(/^sign-in-[0-9a-f]{24}\.html$/);
      expect([seen.fileMode, seen.folderMode]).toEqual(['600', '700']);

      // The command lines it read are real ones, its own among them; the page's own code is in none.
      expect(seen.commandLines.some((line) => line.includes(page))).toBe(true);
      const code = /[?&]code=([A-Za-z0-9_-]{43})/.exec(seen.page)?.[1];
      expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
      for (const line of seen.commandLines) expect(line).not.toContain(code);

      // The page held a working handoff: its code, still valid, signs the owner in once; then the page is gone.
      expect(seen.page).toContain(`location.replace("${url}/signin?code=${code}");`);
      expect(existsSync(page)).toBe(true);
      const first = await redeem(url, code as string);
      expect(first.status).toBe(200);
      expect((await call<{ data: AccountUsage }>({ url }, 'GET', '/api/v0/stats', { key: first.session ?? null })).json.data.name).toBe('owner');
      expect(existsSync(page)).toBe(false);
      expect((await redeem(url, code as string)).status).toBe(401);
    },
  );

  it('pinfold open without a terminal, or with --no-browser, prints a fresh link for the running service; it redeems once', async () => {
    const { url, dataDir } = await serve();
    const opened = await runCli(['open', '--data', dataDir]);
    expect(opened.stderr).toBe('');
    expect(opened.code).toBe(0);
    const match = /^(http:\/\/127\.0\.0\.1:\d+)\/signin\?code=([A-Za-z0-9_-]{43})\n$/.exec(opened.stdout);
    expect(match?.[1]).toBe(url);
    expect((await redeem(url, match?.[2] as string)).status).toBe(200);
    expect((await redeem(url, match?.[2] as string)).status).toBe(401);

    const quiet = await runCli(['open', '--data', dataDir, '--no-browser']);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/signin\?code=[A-Za-z0-9_-]{43}\n$/);
  });

  it.runIf(onLinux)('pinfold open at a terminal with no browser opener on the machine prints a link there instead', async () => {
    const { url, dataDir } = await serve();
    const opened = await runCli(['open', '--data', dataDir], { PATH: '/nonexistent' }, { terminal: true });
    expect(opened.code).toBe(0);
    expect(opened.stdout).toContain('could not open a browser');
    const code = new RegExp(`^${url}/signin\\?code=([A-Za-z0-9_-]{43})$`, 'm').exec(opened.stdout)?.[1];
    expect((await redeem(url, code as string)).status).toBe(200);
  });

  it('pinfold open without a running server, with a stray argument or flag, or without the owner key, says so', async () => {
    const empty = await dirs.make();
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
