import type { ForkOptions, UtilityProcess } from 'electron';
import type { ServiceChild } from './service-supervisor.js';

/** Electron's utilityProcess.fork, passed in by main.ts (the one file that loads Electron). */
export type UtilityFork = (modulePath: string, args?: string[], options?: ForkOptions) => UtilityProcess;

/**
 * The service in an Electron utility process: a Node environment with Electron's ABI, a child of the
 * main process that dies with it, and `process.parentPort` as its line to us. Chosen over
 * child_process.fork, which would need ELECTRON_RUN_AS_NODE (the packaged app's fuses turn run-as-node
 * off) and has no system Node to fall back on in a packaged app.
 */
export function utilityServiceChild(fork: UtilityFork, modulePath: string, args: string[], env: Record<string, string>): ServiceChild {
  // The process's own copy of our environment plus its run token; the token never goes on the command line.
  const child = fork(modulePath, args, { serviceName: 'Pinfold service', stdio: 'inherit', env: { ...process.env, ...env } });
  return {
    postMessage: (message) => child.postMessage(message),
    onMessage: (listener) => void child.on('message', (message: unknown) => listener(message)),
    // A utility process reports only an exit code; a crash by signal shows as a code that is not 0.
    onExit: (listener) => void child.once('exit', (code: number) => listener(code, null)),
    kill() {
      // kill() asks nicely (SIGTERM); after the stop deadline the process gets no more chances.
      if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
      else child.kill();
    },
  };
}
