import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { repoRoot } from './account-api.js';

const LISTENING = /Pinfold listening on (http:\/\/127\.0\.0\.1:\d+)\n/;

/** `pinfold serve` run from the sources as a child process, for tests that kill it. */
export interface ServeChild {
  child: ChildProcessWithoutNullStreams;
  /** The base URL once the listening line is printed; rejects if the process exits first or the deadline passes. */
  listening(deadlineMs?: number): Promise<string>;
  /** Resolves with the exit code (null when a signal ended it). */
  exited(deadlineMs?: number): Promise<number | null>;
  output(): string;
}

export function startServeChild(args: string[], env: NodeJS.ProcessEnv = {}): ServeChild {
  const child = spawn(process.execPath, ['--import', 'tsx', 'main/cli.ts', 'serve', ...args], {
    cwd: repoRoot,
    env: { ...process.env, PINFOLD_OWNER_KEY: '', PINFOLD_OWNER_SECRET: '', ...env },
  });
  let stdout = '';
  let stderr = '';
  let ended = false;
  let exitCode: number | null = null;
  const waiters: Array<() => void> = [];
  const wake = (): void => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    wake();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.on('exit', (code, signal) => {
    ended = true;
    exitCode = code;
    if (code === null) stderr += `\n[killed by ${signal ?? 'unknown signal'}]`;
    wake();
  });
  const wait = <T>(what: string, deadlineMs: number, probe: () => T | undefined): Promise<T> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${what}: nothing within ${deadlineMs} ms; stdout: ${stdout} stderr: ${stderr}`)), deadlineMs);
      const check = (): void => {
        try {
          const value = probe();
          if (value === undefined) return void waiters.push(check);
          clearTimeout(timer);
          resolve(value);
        } catch (error) {
          clearTimeout(timer);
          reject(error as Error);
        }
      };
      check();
    });
  return {
    child,
    output: () => stdout + stderr,
    listening: (deadlineMs = 30_000) =>
      wait('listening', deadlineMs, () => {
        const match = LISTENING.exec(stdout);
        if (match) return match[1] as string;
        if (ended) throw new Error(`serve exited with ${exitCode} before listening; stderr: ${stderr}`);
        return undefined;
      }),
    exited: (deadlineMs = 30_000) => wait('exit', deadlineMs, () => (ended ? { code: exitCode } : undefined)).then((result) => result.code),
  };
}
