import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Shared by the engine helpers (PostgreSQL, Ceph RGW): ports, users, waiting, running a command to its end. */

export interface EngineUser {
  uid: number;
  gid: number;
}

/**
 * The user the engines run as when the tests run as root (CI): `nobody`, present on every Debian and
 * Ubuntu machine (PostgreSQL refuses to run as root). Undefined when the tests are not root: the engines
 * then run as the tests' own user.
 */
export function engineUser(): EngineUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('nobody:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) throw new Error('no user "nobody" in /etc/passwd to run the test engines as');
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * `command args` as `user`: through setpriv, which changes user and then executes the command in its own
 * process (unlike su or runuser, which stay as a parent), so signals sent to the child reach the engine.
 */
export function asEngineUser(command: string, args: readonly string[], user: EngineUser | undefined): [string, string[]] {
  if (user === undefined) return [command, [...args]];
  return ['setpriv', [`--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', '--', command, ...args]];
}

/** A loopback port free right now (the engine binds it a moment later; nothing else here takes ports). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a command to its end; a non-zero exit is an error carrying what it printed. */
export function runToEnd([command, args]: [string, string[]], options: { env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve(output);
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code ?? signal}: ${output.slice(-4000)}`));
    });
  });
}

/** Polls `ready` until it answers true, every 100 ms, for at most `withinMs`; then fails naming `what`. */
export async function waitUntil(what: string, withinMs: number, ready: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await ready()) return;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
