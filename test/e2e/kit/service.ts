/**
 * A real `pinfold serve` for the e2e tests: a child process (tsx over main/cli/main.ts) on port 0 over a
 * fresh temp data folder, serving the built renderer (dist/renderer: `npx vite build` first; `npm test`
 * builds). It can be stopped and started again on the same port and data, as a user restarting it would.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OwnerKey } from '../../../main/app/create-app.js';
import type { SignInCode, SignInHandoff } from '../../../shared/api-types.js';
import { startServe, type ServeProcess } from '../../helpers/serve-process.js';
import { call, type CallOptions, type CallResult } from '../../helpers/test-server.js';

const rendererIndex = fileURLToPath(new URL('../../../dist/renderer/index.html', import.meta.url));
const SIGN_IN_LINE = /Sign in: (.*)\n/;

export interface E2eService {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly dataDir: string;
  /** The owner's admin key (owner-key.json). */
  readonly owner: OwnerKey;
  /** What `pinfold serve` printed after `Sign in:` (its output is not a terminal: how to get a link, no code). */
  readonly printedSignIn: string;
  /** A fresh one-time sign-in link (POST /api/v0/session/code as the owner). */
  signInLink(): Promise<string>;
  /** The path of a fresh one-time sign-in page, as `pinfold open` and the desktop app open (POST /api/v0/session/handoff). */
  signInPage(query?: Record<string, string>): Promise<string>;
  /** One API call as `key` (the owner by default): `ts` and key headers added. */
  call<T = unknown>(method: string, path: string, options?: CallOptions): Promise<CallResult<T>>;
  /** Stops the process (SIGTERM) and waits for it to exit; the data folder stays. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data folder. */
  start(): Promise<void>;
  /** Stops it and removes the data folder. */
  dispose(): Promise<void>;
  /** What the process printed, for failure messages. */
  output(): string;
}

export interface StartOptions {
  /** Leave the owner's first-run welcome to be shown (by default the kit marks it seen, so a sign-in lands on its page as before). */
  welcome?: boolean;
}

export async function startService(extraArgs: readonly string[] = [], options: StartOptions = {}): Promise<E2eService> {
  if (!existsSync(rendererIndex)) throw new Error(`${rendererIndex} is missing: run \`npx vite build\` first (npm test does)`);
  const dataDir = await mkdtemp(join(tmpdir(), 'pinfold-e2e-'));
  let proc: ServeProcess | null = null;
  let url = '';
  let printedSignIn = '';
  let log = '';

  const launch = async (port: string): Promise<void> => {
    // A test that gives --desktop-port (a port that pins nothing) gets no --port: the two name the same thing.
    const portArgs = extraArgs.includes('--desktop-port') ? [] : ['--port', port];
    const next = startServe(['--data', dataDir, ...portArgs, ...extraArgs]);
    proc = next;
    url = await next.listening(60_000);
    printedSignIn = await next.listening(10_000, SIGN_IN_LINE);
  };
  await launch('0');
  const owner = JSON.parse(await readFile(join(dataDir, 'owner-key.json'), 'utf8')) as OwnerKey;

  const stop = async (): Promise<void> => {
    const running = proc;
    if (!running) return;
    proc = null;
    log += running.stdout() + running.stderr();
    running.child.kill('SIGTERM');
    await running.exited(30_000);
  };

  const service: E2eService = {
    get url() {
      return url;
    },
    dataDir,
    owner,
    get printedSignIn() {
      return printedSignIn;
    },
    async signInLink() {
      const answer = await call<{ data: SignInCode }>({ url }, 'POST', '/api/v0/session/code', { key: owner });
      if (answer.status !== 200) throw new Error(`session/code answered ${answer.status}: ${answer.text}`);
      return answer.json.data.url;
    },
    async signInPage(query = {}) {
      const answer = await call<{ data: SignInHandoff }>({ url }, 'POST', '/api/v0/session/handoff', { key: owner, query });
      if (answer.status !== 200) throw new Error(`session/handoff answered ${answer.status}: ${answer.text}`);
      return answer.json.data.path;
    },
    call: (method, path, options = {}) => call({ url }, method, path, { key: owner, ...options }),
    stop,
    async start() {
      if (proc) return;
      await launch(new URL(url).port);
    },
    async dispose() {
      await stop();
      await rm(dataDir, { recursive: true, force: true });
    },
    output: () => {
      const running = proc;
      return log + (running ? running.stdout() + running.stderr() : '');
    },
  };
  if (!options.welcome) {
    const seen = await service.call('POST', '/api/v0/settings', { body: { welcome_seen: true } });
    if (seen.status !== 200) throw new Error(`settings answered ${seen.status}: ${seen.text}`);
  }
  return service;
}
