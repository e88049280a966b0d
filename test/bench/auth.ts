import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { createApp } from '../../main/app.js';
import { defaultConfig } from '../../main/base/config.js';
import { numberFlag } from './lib/flags.js';
import { measure, type CannonResult } from './lib/load.js';

/**
 * Authenticated `GET /api/v0/stats` of a real Pinfold server against a bare Fastify route returning a
 * small JSON, in the same process and run. The load generator runs in a worker thread so that it does
 * not share the servers' event loop. Each side gets `--duration` seconds in all (default 10), run in
 * alternating slices (`--slices`, default 5) so that a change in the machine's background load hits
 * both sides alike instead of skewing the ratio. Target: ratio >= 0.7.
 */

interface Summary {
  rps: number;
  total: number;
  /** Median over the slices of each slice's p50. */
  p50: number;
  /** Worst slice's p99. */
  p99: number;
}

function summarize(results: readonly CannonResult[], seconds: number): Summary {
  const total = results.reduce((sum, r) => sum + r.requests.total, 0);
  const p50s = results.map((r) => r.latency.p50).sort((a, b) => a - b);
  return {
    rps: total / seconds,
    total,
    p50: p50s[Math.floor(p50s.length / 2)] ?? 0,
    p99: Math.max(...results.map((r) => r.latency.p99)),
  };
}

function line(label: string, s: Summary): string {
  return `${label.padEnd(10)} ${s.rps.toFixed(0).padStart(8)} req/s   p50 ${s.p50} ms   p99 ${s.p99} ms   (${s.total} requests)`;
}

export async function run(args: readonly string[]): Promise<void> {
  const duration = numberFlag(args, 'duration', 10);
  const connections = numberFlag(args, 'connections', 10);
  const slices = Math.round(numberFlag(args, 'slices', 5));
  const sliceSeconds = duration / slices;
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

    process.stdout.write(
      `auth benchmark: ${connections} connections, ${duration} s each in ${slices} alternating slices, load from a worker thread\n`,
    );
    // Warm both up (JIT, key cache, statement cache) before anything counts.
    await measure('warm-up', { ...common, url: `${bareUrl}/bare`, duration: 1 });
    await measure('warm-up', { ...common, url: statsUrl, headers, duration: 1 });

    const baselineRuns: CannonResult[] = [];
    const pinfoldRuns: CannonResult[] = [];
    for (let slice = 0; slice < slices; slice++) {
      baselineRuns.push(await measure('baseline', { ...common, url: `${bareUrl}/bare`, duration: sliceSeconds }));
      pinfoldRuns.push(await measure('pinfold', { ...common, url: statsUrl, headers, duration: sliceSeconds }));
    }
    const baseline = summarize(baselineRuns, duration);
    const pinfold = summarize(pinfoldRuns, duration);
    process.stdout.write(`${line('baseline', baseline)}\n${line('pinfold', pinfold)}\n`);

    const peakRssMiB = process.resourceUsage().maxRSS / 1024;
    process.stdout.write(`peak RSS ${peakRssMiB.toFixed(1)} MiB (whole process: both servers and the load generator)\n`);
    const ratio = pinfold.rps / baseline.rps;
    process.stdout.write(`RESULT auth ratio=${ratio.toFixed(3)} pinfold_rps=${pinfold.rps.toFixed(0)} baseline_rps=${baseline.rps.toFixed(0)}\n`);
  } finally {
    await bare.close();
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
