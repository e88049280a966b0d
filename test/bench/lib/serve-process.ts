import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The real service for a benchmark to measure from outside: `bin/pinfold.js serve` (compiled
 * JavaScript, as installed) in a child process. Its CPU time is read from /proc, so only the service
 * is counted: not the benchmark's own work, nor a TypeScript loader's thread.
 */

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const LISTENING = /Pinfold listening on (http:\/\/\S+)/;

/** Compiles main/ into dist/ so the child runs the current sources. */
export function buildMain(): void {
  const tsc = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: repo, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`build failed: ${result.stdout}${result.stderr}`);
}

export interface ServeProcess {
  url: string;
  /** User + system CPU seconds the service process has used so far. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

function clockTicksPerSecond(): number {
  const out = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim();
  const ticks = Number(out);
  return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
}

export async function startServe(dataDir: string, deadlineMs = 60_000): Promise<ServeProcess> {
  if (process.platform !== 'linux') throw new Error('measuring a service process reads /proc: Linux only');
  const ticks = clockTicksPerSecond();
  const child = spawn(process.execPath, ['bin/pinfold.js', 'serve', '--data', dataDir, '--port', '0'], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (output += text));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no listening line within ${deadlineMs} ms: ${output}`)), deadlineMs);
    const check = (): void => {
      const match = LISTENING.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve(match[1] as string);
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code ?? 'a signal'}: ${output}`));
    });
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('serve has no pid');
  return {
    url,
    cpuSeconds() {
      // Fields after the command name: utime and stime are the 12th and 13th.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / ticks;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
