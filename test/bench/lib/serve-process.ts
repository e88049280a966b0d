import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testServeArgs } from '../../helpers/test-network.js';

/**
 * `pinfold serve` in a child process, for benchmarks to measure from outside: the service as users run
 * it. From source through tsx by default; `compiled` runs `bin/pinfold.js` (dist/, as installed), whose
 * CPU time then counts only the service, not a TypeScript loader's thread.
 */

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const LISTENING = /Pinfold listening on (http:\/\/\S+)/;

/** Compiles main/ into dist/ so a `compiled` child runs the current sources. */
export function buildMain(): void {
  const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: repoRoot, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`build failed: ${result.stdout}${result.stderr}`);
}

export interface ServeOptions {
  /** An existing data folder (kept on stop); default a fresh temp folder (removed on stop). */
  dataDir?: string;
  compiled?: boolean;
  args?: readonly string[];
  /** Added to the child's environment (S3 credentials, PGPASSWORD…). */
  env?: NodeJS.ProcessEnv;
  /**
   * The owner key to use; default the one the service wrote into its data folder (only the first instance
   * on a shared database writes one).
   */
  key?: { access_key: string; access_secret: string };
}

export interface ServeProcess {
  url: string;
  key: { access_key: string; access_secret: string };
  dataDir: string;
  child: ChildProcess;
  peakRssMiB(): number;
  /** User + system CPU seconds the service has used so far (Linux: /proc). */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/** A child's peak resident set (VmHWM), MiB; NaN where /proc is not there. */
export function childPeakRssMiB(pid: number | undefined): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

function clockTicksPerSecond(): number {
  const ticks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim());
  return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
}

/** User + system CPU seconds a child process has used so far (Linux: /proc). */
export function cpuSecondsOf(pid: number | undefined, ticks: number = clockTicksPerSecond()): number {
  if (process.platform !== 'linux') throw new Error('a child process CPU time is read from /proc: Linux only');
  // The fields after the command name: utime and stime are the 12th and 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticks;
}

export async function startServe(options: ServeOptions = {}): Promise<ServeProcess> {
  const ownsData = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'pinfold-bench-')));
  const entry = options.compiled ? ['bin/pinfold.js'] : ['--import', 'tsx', 'main/cli/main.ts'];
  // PINFOLD_BENCH_CPU_PROF=<dir>: the service writes a V8 CPU profile there when it stops.
  const profile = process.env.PINFOLD_BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PINFOLD_BENCH_CPU_PROF}`] : [];
  const child = spawn(
    process.execPath,
    [...profile, ...entry, 'serve', ...testServeArgs(['--data', dataDir, '--port', '0', '--gc-interval', '86400', ...(options.args ?? [])])],
    {
      cwd: repoRoot,
      env: { ...process.env, PINFOLD_LOG: 'error', ...options.env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = LISTENING.exec(out);
      if (match) resolve(match[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`pinfold serve exited with ${code ?? 'a signal'}: ${out}`)));
  });
  const key = options.key ?? (JSON.parse(await readFile(join(dataDir, 'owner-key.json'), 'utf8')) as ServeProcess['key']);
  const ticks = clockTicksPerSecond();
  return {
    url,
    key,
    dataDir,
    child,
    peakRssMiB: () => childPeakRssMiB(child.pid),
    cpuSeconds: () => cpuSecondsOf(child.pid, ticks),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      if (ownsData) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
