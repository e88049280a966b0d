import { fork, type ChildProcess } from 'node:child_process';
import type { ServiceChild, ServiceSupervisor } from '../../main/desktop/service-supervisor.js';
import type { ServiceStatus } from '../../main/desktop/service-supervisor-state.js';
import { repoRoot } from './account-api.js';
import { testServeArgs } from './test-network.js';

/**
 * The desktop's service process under plain Node: `pinfold serve` (tsx over main/cli/main.ts) forked with an
 * IPC channel, as a {@link ServiceChild} for the supervisor. Electron's utility process is the same
 * entry with `process.parentPort` in place of the IPC channel.
 */
export function nodeServiceLauncher(args: string[], env: NodeJS.ProcessEnv = {}) {
  const processes: ChildProcess[] = [];
  const exits: { pid: number | undefined; code: number | null; signal: string | null }[] = [];
  let output = '';
  /**
   * Starts `pinfold serve` with the launcher's arguments, or with `serveArgs` (a full command line from
   * `serve` on), and `launchEnv` added to its environment (the desktop's run token).
   */
  const launch = (serveArgs: string[] = ['serve', ...args], launchEnv: Record<string, string> = {}): ServiceChild => {
    const [command = 'serve', ...flags] = serveArgs;
    const child = fork(`${repoRoot}/main/cli/main.ts`, [command, ...testServeArgs(flags)], {
      cwd: repoRoot,
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, PINFOLD_OWNER_KEY: '', PINFOLD_OWNER_SECRET: '', ...env, ...launchEnv },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    processes.push(child);
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('exit', (code, signal) => exits.push({ pid: child.pid, code, signal }));
    return {
      postMessage: (message) => {
        if (child.connected) child.send(message);
      },
      onMessage: (listener) => void child.on('message', listener),
      onExit: (listener) => void child.on('exit', (code, signal) => listener(code, signal)),
      kill: () => void child.kill('SIGKILL'),
    };
  };
  return {
    launch,
    processes,
    exits,
    output: () => output,
    /** Kills every process still running (test cleanup). */
    async killAll(): Promise<void> {
      await Promise.all(
        processes
          .filter((child) => child.exitCode === null && child.signalCode === null)
          .map((child) => new Promise<void>((resolve) => (child.once('exit', () => resolve()), child.kill('SIGKILL')))),
      );
    },
  };
}

/** Resolves with the first status that satisfies `wanted` (the current one included); rejects after the deadline. */
export function waitForStatus(
  supervisor: Pick<ServiceSupervisor, 'status' | 'onStateChange'>,
  wanted: (status: ServiceStatus) => boolean,
  deadlineMs = 60_000,
): Promise<ServiceStatus> {
  return new Promise((resolve, reject) => {
    if (wanted(supervisor.status())) return resolve(supervisor.status());
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no such service status within ${deadlineMs} ms; last: ${JSON.stringify(supervisor.status())}`));
    }, deadlineMs);
    const stop = supervisor.onStateChange((status) => {
      if (!wanted(status)) return;
      clearTimeout(timer);
      stop();
      resolve(status);
    });
  });
}
