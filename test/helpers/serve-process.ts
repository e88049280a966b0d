import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { repoRoot } from './account-api.js';
import { onTerminal, terminalText } from './terminal.js';
import { testServeArgs } from './test-network.js';

/** `pinfold serve` run as a child process (tsx over main/cli/main.ts), with its output collected for assertions. */

export const LISTENING = /Pinfold listening on (http:\/\/127\.0\.0\.1:(\d+))\n/;

export interface ServeProcess {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves to the base URL once the listening line is printed; rejects if the process exits first or the deadline passes. */
  listening(deadlineMs?: number, line?: RegExp): Promise<string>;
  /** Resolves to the exit code. */
  exited(deadlineMs?: number): Promise<number | null>;
}

/**
 * Offline unless `args` give network flags (test-network.ts). `terminal`: its output on a terminal (test/helpers/terminal.ts, Linux only), as when a person starts it
 * in one; `child` is then the terminal's process, and killing it hangs the server up (SIGHUP).
 */
export function startServe(args: string[], env: NodeJS.ProcessEnv = {}, options: { terminal?: boolean } = {}): ServeProcess {
  const argv = [process.execPath, '--import', 'tsx', 'main/cli/main.ts', 'serve', ...testServeArgs(args)];
  const { command, args: commandArgs } = options.terminal ? onTerminal(argv) : { command: process.execPath, args: argv.slice(1) };
  const child = spawn(command, commandArgs, {
    cwd: repoRoot,
    env: { ...process.env, PINFOLD_OWNER_KEY: '', PINFOLD_OWNER_SECRET: '', ...env },
  });
  let stdout = '';
  let stderr = '';
  let exitCode: number | null | undefined;
  const exitWaiters: (() => void)[] = [];
  const outWaiters: (() => void)[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += options.terminal ? terminalText(chunk.toString('utf8')) : chunk.toString('utf8');
    for (const wake of outWaiters.splice(0)) wake();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.on('exit', (code, signal) => {
    exitCode = code;
    // A death by signal is reported with its name, so a failing assertion says what killed the server.
    if (code === null) stderr += `\n[killed by ${signal ?? 'unknown signal'}]`;
    for (const wake of [...exitWaiters.splice(0), ...outWaiters.splice(0)]) wake();
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    listening(deadlineMs = 30_000, line = LISTENING) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listening line within ${deadlineMs} ms; stdout: ${stdout} stderr: ${stderr}`)), deadlineMs);
        const check = (): void => {
          const match = line.exec(stdout);
          if (match) {
            clearTimeout(timer);
            resolve(match[1] as string);
          } else if (exitCode !== undefined) {
            clearTimeout(timer);
            reject(new Error(`serve exited with ${exitCode} before listening; stderr: ${stderr}`));
          } else outWaiters.push(check);
        };
        check();
      });
    },
    exited(deadlineMs = 30_000) {
      return new Promise((resolve, reject) => {
        if (exitCode !== undefined) return resolve(exitCode);
        const timer = setTimeout(() => reject(new Error(`still running after ${deadlineMs} ms`)), deadlineMs);
        exitWaiters.push(() => {
          clearTimeout(timer);
          resolve(exitCode ?? null);
        });
      });
    },
  };
}
