import { performance } from 'node:perf_hooks';
import type { PinListEnvelope } from '../../shared/api-types.js';
import { benchPinName, fillPins } from './lib/fill-pins.js';
import { numberFlag } from './lib/flags.js';
import { startServe, type ServeProcess } from './lib/serve-process.js';

/**
 * `npm run bench -- pins-api [--pins 100000] [--limit 50] [--samples 200] [--runs 2]`: the pin list API
 * of a `pinfold serve` child holding --pins pins (written straight into its database, in a mix of names
 * and statuses), measured from outside as the window calls it. Per run, on fresh data: p50 of the first
 * page (start=0) and of the last page (start=total-limit), requested in alternation so that background
 * load weighs on both alike, and p50 of a name search (`name=` a substring, case-insensitive). Targets
 * (issue 12): last page p50 / first page p50 < 2 (best of the runs), name search p50 well under 300 ms.
 */

async function list(serve: ServeProcess, query: Record<string, string>): Promise<{ ms: number; answer: PinListEnvelope }> {
  const params = new URLSearchParams({ ts: String(Math.floor(Date.now() / 1000)), ...query });
  const started = performance.now();
  const response = await fetch(`${serve.url}/api/v0/pin?${params.toString()}`, {
    headers: { 'X-Access-Key': serve.key.access_key, 'X-Access-Secret': serve.key.access_secret },
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`GET /api/v0/pin?${params.toString()}: ${response.status} ${text}`);
  return { ms, answer: JSON.parse(text) as PinListEnvelope };
}

function p50(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

interface RunResult {
  firstMs: number;
  lastMs: number;
  nameMs: number;
}

async function oneRun(pins: number, limit: number, samples: number): Promise<RunResult> {
  const serve = await startServe();
  try {
    const filled = performance.now();
    fillPins(serve.dataDir, pins);
    process.stdout.write(`  ${pins} pins written in ${((performance.now() - filled) / 1000).toFixed(1)} s\n`);
    const total = (await list(serve, { limit: '1' })).answer.total;
    if (total !== pins) throw new Error(`the list counts ${total} pins, not ${pins}`);
    const first = { start: '0', limit: String(limit) };
    const last = { start: String(total - limit), limit: String(limit) };
    // The last page must be the oldest pins, newest first: a benchmark of a wrong answer proves nothing.
    const lastPage = (await list(serve, last)).answer.data;
    if (lastPage.length !== limit || lastPage[limit - 1]?.name !== benchPinName(0)) throw new Error('the last page is not the oldest pins');
    for (let i = 0; i < 20; i++) {
      await list(serve, first);
      await list(serve, last);
    }
    const firstMs: number[] = [];
    const lastMs: number[] = [];
    for (let i = 0; i < samples; i++) {
      const order: Array<[Record<string, string>, number[]]> = [
        [first, firstMs],
        [last, lastMs],
      ];
      if (i % 2 === 1) order.reverse();
      for (const [query, times] of order) times.push((await list(serve, query)).ms);
    }
    // Searches that match many (the count walks every name) and few.
    const searches = ['report 9', 'ÜNÏ', 'photo 12', 'no such pin', 'video 4'];
    const nameMs: number[] = [];
    for (let i = 0; i < Math.max(10, Math.floor(samples / 4)); i++) {
      nameMs.push((await list(serve, { name: searches[i % searches.length] as string, limit: String(limit) })).ms);
    }
    const result = { firstMs: p50(firstMs), lastMs: p50(lastMs), nameMs: p50(nameMs) };
    process.stdout.write(
      `  first page p50 ${result.firstMs.toFixed(2)} ms, last page p50 ${result.lastMs.toFixed(2)} ms (ratio ${(result.lastMs / result.firstMs).toFixed(3)}), name search p50 ${result.nameMs.toFixed(2)} ms\n`,
    );
    return result;
  } finally {
    await serve.stop();
  }
}

export async function run(args: readonly string[]): Promise<void> {
  const pins = Math.round(numberFlag(args, 'pins', 100_000));
  const limit = Math.round(numberFlag(args, 'limit', 50));
  const samples = Math.round(numberFlag(args, 'samples', 200));
  const runs = Math.round(numberFlag(args, 'runs', 2));
  if (limit > 1000 || limit >= pins) throw new Error('--limit must be at most 1000 and below --pins');
  process.stdout.write(
    `pins-api benchmark: ${pins} pins, pages of ${limit}, ${samples} samples of each page per run, ${runs} runs on fresh data (pinfold serve child)\n`,
  );
  const results: RunResult[] = [];
  for (let i = 0; i < runs; i++) {
    process.stdout.write(`run ${i + 1}:\n`);
    results.push(await oneRun(pins, limit, samples));
  }
  const best = results.reduce((a, b) => (b.lastMs / b.firstMs < a.lastMs / a.firstMs ? b : a));
  const ratio = best.lastMs / best.firstMs;
  const nameMs = p50(results.map((result) => result.nameMs));
  process.stdout.write(`targets: last/first < 2 (${ratio < 2 ? 'met' : 'NOT met'}), name search p50 < 300 ms (${nameMs < 300 ? 'met' : 'NOT met'})\n`);
  process.stdout.write(
    `RESULT pins-api ratio=${ratio.toFixed(3)} first_p50_ms=${best.firstMs.toFixed(2)} last_p50_ms=${best.lastMs.toFixed(2)} name_p50_ms=${nameMs.toFixed(2)} pins=${pins} limit=${limit}\n`,
  );
}

export default run;
