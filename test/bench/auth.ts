import { createRequire } from 'node:module';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { createApp } from '../../main/app.js';
import { defaultConfig } from '../../main/base/config.js';

/**
 * Authenticated `GET /api/v0/stats` of a real Pinfold server against a bare Fastify route returning a
 * small JSON, in the same process and run. The load generator runs in a worker thread so that it does
 * not share the servers' event loop. Target: ratio >= 0.7.
 */

interface Histogram {
  average: number;
  p50: number;
  p99: number;
  total: number;
}

interface CannonResult {
  requests: Histogram;
  latency: Histogram;
  non2xx: number;
  errors: number;
  timeouts: number;
}

interface CannonOptions {
  url: string;
  connections: number;
  duration: number;
  workers?: number;
  headers?: Record<string, string>;
}

// autocannon ships no types; this is the part of its API we use.
const autocannon = createRequire(import.meta.url)('autocannon') as (options: CannonOptions) => Promise<CannonResult>;

function flag(args: readonly string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  const text = i === -1 ? args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] : args[i + 1];
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

async function measure(label: string, options: CannonOptions): Promise<CannonResult> {
  const result = await autocannon(options);
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0)
    throw new Error(`${label}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts; the measurement is void`);
  return result;
}

function line(label: string, result: CannonResult): string {
  return `${label.padEnd(10)} ${result.requests.average.toFixed(0).padStart(8)} req/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms   (${result.requests.total} requests)`;
}

export async function run(args: readonly string[]): Promise<void> {
  const duration = flag(args, 'duration', 10);
  const connections = flag(args, 'connections', 10);
  const dataDir = await mkdtemp(join(tmpdir(), 'pinfold-bench-auth-'));
  const app = await createApp({ config: defaultConfig({ dataDir, port: 0 }), env: {} });
  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => ({ code: 200, msg: 'ok', data: { name: 'bench', pinned_count: 0, ingress: 0 } }));
  try {
    const pinfoldUrl = await app.listen();
    const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });
    // ts is taken once: the run is far shorter than the 300 s window.
    const statsUrl = `${pinfoldUrl}/api/v0/stats?ts=${Math.floor(Date.now() / 1000)}`;
    const headers = { 'X-Access-Key': app.ownerKey.access_key, 'X-Access-Secret': app.ownerKey.access_secret };
    const common = { connections, workers: 1 };

    process.stdout.write(`auth benchmark: ${connections} connections, ${duration} s each, load from a worker thread\n`);
    // Warm both up (JIT, key cache, statement cache) before anything counts.
    await measure('warm-up', { ...common, url: `${bareUrl}/bare`, duration: 1 });
    await measure('warm-up', { ...common, url: statsUrl, headers, duration: 1 });

    const baseline = await measure('baseline', { ...common, url: `${bareUrl}/bare`, duration });
    process.stdout.write(`${line('baseline', baseline)}\n`);
    const pinfold = await measure('pinfold', { ...common, url: statsUrl, headers, duration });
    process.stdout.write(`${line('pinfold', pinfold)}\n`);

    const peakRssMiB = process.resourceUsage().maxRSS / 1024;
    process.stdout.write(`peak RSS ${peakRssMiB.toFixed(1)} MiB (whole process: both servers and the load generator)\n`);
    const ratio = pinfold.requests.average / baseline.requests.average;
    process.stdout.write(
      `RESULT auth ratio=${ratio.toFixed(3)} pinfold_rps=${pinfold.requests.average.toFixed(0)} baseline_rps=${baseline.requests.average.toFixed(0)}\n`,
    );
  } finally {
    await bare.close();
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
