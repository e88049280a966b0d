import { numberFlag } from './lib/flags.js';
import { measure, type CannonResult } from './lib/load.js';
import { cpuMicrosPerRequest, startBaseline, type BaselineServer } from './lib/baseline-server.js';
import { buildMain, startServe, type ServeProcess } from './lib/serve-process.js';

/**
 * Authenticated `GET /api/v0/stats` of a compiled `pinfold serve` child against a bare Fastify route
 * returning a small JSON, also in a child process. The load generator runs in a worker thread of this
 * process. Each side gets `--duration` seconds in all (default 10), run in alternating slices (`--slices`,
 * default 5) so that a change in the machine's background load hits both sides alike. Besides requests per
 * second, each side's server CPU time per request is read from /proc: on two shared cores the load
 * generator's own CPU swings requests per second, while CPU per request only counts the server's work.
 * Target: ratio >= 0.7 on both figures.
 */

interface Summary {
  rps: number;
  total: number;
  /** Median over the slices of each slice's p50. */
  p50: number;
  /** Worst slice's p99. */
  p99: number;
  /** Server CPU microseconds per request over all slices. */
  cpuMicros: number;
}

function summarize(results: readonly CannonResult[], seconds: number, cpuSeconds: number): Summary {
  const total = results.reduce((sum, r) => sum + r.requests.total, 0);
  const p50s = results.map((r) => r.latency.p50).sort((a, b) => a - b);
  return {
    rps: total / seconds,
    total,
    p50: p50s[Math.floor(p50s.length / 2)] ?? 0,
    p99: Math.max(...results.map((r) => r.latency.p99)),
    cpuMicros: cpuMicrosPerRequest(cpuSeconds, total),
  };
}

function line(label: string, s: Summary): string {
  return `${label.padEnd(10)} ${s.rps.toFixed(0).padStart(8)} req/s   p50 ${s.p50} ms   p99 ${s.p99} ms   ${s.cpuMicros.toFixed(1)} CPU-us/req   (${s.total} requests)`;
}

function startBare(): Promise<BaselineServer> {
  return startBaseline(`
    const bare = require('fastify')({ logger: false });
    bare.get('/bare', async () => ({ code: 200, msg: 'ok', data: { name: 'bench', pinned_count: 0, ingress: 0 } }));
    bare.listen({ host: '127.0.0.1', port: 0 }).then(() => process.stdout.write('listening ' + bare.server.address().port + '\\n'));
    process.on('SIGTERM', () => bare.close().then(() => process.exit(0)));`);
}

export async function run(args: readonly string[]): Promise<void> {
  const duration = numberFlag(args, 'duration', 10);
  const connections = numberFlag(args, 'connections', 10);
  const slices = Math.round(numberFlag(args, 'slices', 5));
  const sliceSeconds = duration / slices;
  let server: ServeProcess | null = null;
  let bare: BaselineServer | null = null;
  try {
    buildMain();
    server = await startServe({ compiled: true });
    bare = await startBare();
    // ts is taken once: the run is far shorter than the 300 s window.
    const statsUrl = `${server.url}/api/v0/stats?ts=${Math.floor(Date.now() / 1000)}`;
    const headers = { 'X-Access-Key': server.key.access_key, 'X-Access-Secret': server.key.access_secret };
    const common = { connections, workers: 1 };

    process.stdout.write(
      `auth benchmark: ${connections} connections, ${duration} s each in ${slices} alternating slices, both servers in child processes, load from a worker thread\n`,
    );
    // Warm both up (JIT, key cache, statement cache) before anything counts.
    await measure('warm-up', { ...common, url: `${bare.url}/bare`, duration: 1 });
    await measure('warm-up', { ...common, url: statsUrl, headers, duration: 1 });

    const baselineRuns: CannonResult[] = [];
    const pinfoldRuns: CannonResult[] = [];
    let baselineCpu = 0;
    let pinfoldCpu = 0;
    for (let slice = 0; slice < slices; slice++) {
      let before = bare.cpuSeconds();
      baselineRuns.push(await measure('baseline', { ...common, url: `${bare.url}/bare`, duration: sliceSeconds }));
      baselineCpu += bare.cpuSeconds() - before;
      before = server.cpuSeconds();
      pinfoldRuns.push(await measure('pinfold', { ...common, url: statsUrl, headers, duration: sliceSeconds }));
      pinfoldCpu += server.cpuSeconds() - before;
    }
    const baseline = summarize(baselineRuns, duration, baselineCpu);
    const pinfold = summarize(pinfoldRuns, duration, pinfoldCpu);
    process.stdout.write(`${line('baseline', baseline)}\n${line('pinfold', pinfold)}\n`);
    process.stdout.write(`peak RSS: pinfold server ${server.peakRssMiB().toFixed(0)} MiB\n`);
    const ratio = pinfold.rps / baseline.rps;
    const cpuRatio = baseline.cpuMicros / pinfold.cpuMicros;
    process.stdout.write(
      `RESULT auth ratio=${ratio.toFixed(3)} cpu_ratio=${cpuRatio.toFixed(3)} pinfold_rps=${pinfold.rps.toFixed(0)} baseline_rps=${baseline.rps.toFixed(0)} pinfold_cpu_us=${pinfold.cpuMicros.toFixed(1)} baseline_cpu_us=${baseline.cpuMicros.toFixed(1)}\n`,
    );
  } finally {
    await bare?.stop();
    await server?.stop();
  }
}
