import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpuSecondsOf } from './serve-process.js';

/**
 * A baseline server in its own process, so that its CPU time is read from /proc exactly as the Pinfold
 * child's is, and neither shares an event loop with the load generator. `script` is CommonJS run with
 * `node -e`; it must listen on 127.0.0.1 port 0, print `listening <port>`, and close on SIGTERM.
 */
export interface BaselineServer {
  url: string;
  pid: number | undefined;
  cpuSeconds(): number;
  stop(): Promise<void>;
}

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export async function startBaseline(script: string): Promise<BaselineServer> {
  // Run from the repository so that `require('fastify')` finds the project's copy.
  const child = spawn(process.execPath, ['-e', script], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(match[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`baseline server exited with ${code ?? 'a signal'}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    cpuSeconds: () => cpuSecondsOf(child.pid),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Server CPU microseconds per answered request over one load run. */
export function cpuMicrosPerRequest(cpuSeconds: number, requests: number): number {
  return requests > 0 ? (cpuSeconds * 1e6) / requests : Number.NaN;
}
