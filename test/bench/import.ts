import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { FsBlockstore } from 'blockstore-fs';
import { importer } from 'ipfs-unixfs-importer';
import { fixedSize } from 'ipfs-unixfs-importer/chunker';
import { balanced } from 'ipfs-unixfs-importer/layout';
import type { CID } from 'multiformats/cid';
import { curlAvailable, curlPost, type Posted } from './lib/curl-post.js';
import { flushDisk } from './lib/flush-disk.js';
import { numberFlag, sizeFlag } from './lib/flags.js';
import { startServe, type ServeProcess } from './lib/serve-process.js';

/**
 * `npm run bench -- import [--size 1G]`: one file of random bytes uploaded through the API (step 1 and a
 * raw-body step 2 over loopback HTTP, to a `pinfold serve` child process on a fresh data folder) against
 * ipfs-unixfs-importer + blockstore-fs importing the same file in this process with the contract options.
 * Both read the same temp file (in the page cache after it was written). `--runs` (3) pairs, each on
 * fresh random bytes with the disk flushed before each side; the ratio is best-of-runs (this machine's
 * CPU steal swings single runs by 2x), the median ratio is reported beside it. Target: ratio >= 1.5.
 *
 * This file also holds the helpers the other content benchmarks (car, gateway, gc) share.
 */

export const MiB = 1024 * 1024;

export const CONTRACT_OPTIONS = {
  cidVersion: 1 as const,
  rawLeaves: true,
  reduceSingleLeafToSelf: true,
  chunker: fixedSize({ chunkSize: MiB }),
  layout: balanced({ maxChildrenPerNode: 1024 }),
};

/** Writes `size` random bytes to `path`, 1 MiB at a time (never the whole file in memory). */
export async function writeRandomFile(path: string, size: number): Promise<void> {
  const out = createWriteStream(path);
  let left = size;
  while (left > 0) {
    const chunk = randomBytes(Math.min(left, MiB));
    left -= chunk.byteLength;
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

export function mbps(bytes: number, ms: number): number {
  return bytes / MiB / (ms / 1000);
}

/** This process's peak resident set, MiB. */
export function selfPeakRssMiB(): number {
  return process.resourceUsage().maxRSS / 1024;
}

export { childPeakRssMiB, startServe, type ServeProcess } from './lib/serve-process.js';

export function authHeaders(server: ServeProcess): Record<string, string> {
  return { 'X-Access-Key': server.key.access_key, 'X-Access-Secret': server.key.access_secret };
}

/** Step 1 of a two-step upload: the signed address. */
export async function uploadAddress(server: ServeProcess, path: string, query: Record<string, string | number>): Promise<string> {
  const params = new URLSearchParams({ ts: String(Math.floor(Date.now() / 1000)) });
  for (const [name, value] of Object.entries(query)) params.set(name, String(value));
  const response = await fetch(`${server.url}${path}?${params.toString()}`, { method: 'POST', headers: authHeaders(server) });
  const body = (await response.json()) as { data?: { url: string }; msg?: string };
  if (response.status !== 200 || !body.data) throw new Error(`step 1 ${path}: ${response.status} ${body.msg}`);
  return body.data.url;
}

export type { Posted } from './lib/curl-post.js';

const SEND_BUFFERS = 4;

/** Step 2: posts a file as the raw body, with curl where there is one (lib/curl-post.ts says why). */
export async function postFile(url: string, file: string, size: number): Promise<Posted> {
  return curlAvailable() ? curlPost(url, file) : postFileFromNode(url, file, size);
}

/**
 * Step 2 without curl: streams a file as the raw body the way a lean client does: reads into a few
 * reused buffers, each written again only once the socket has taken it. A fresh 1 MiB buffer per read
 * (a read stream) made the client's garbage collection cost nearly as much CPU as the server's import,
 * on the same two cores.
 */
async function postFileFromNode(url: string, file: string, size: number): Promise<Posted> {
  const handle = await open(file, 'r');
  try {
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/octet-stream', 'content-length': size } });
    const answered = new Promise<Posted>((resolve, reject) => {
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
    // Settles early when the server answers (or fails) before taking the whole body.
    let stop = false;
    answered.then(
      () => (stop = true),
      () => (stop = true),
    );
    const buffers = Array.from({ length: SEND_BUFFERS }, () => Buffer.allocUnsafeSlow(MiB));
    const taken: Promise<void>[] = buffers.map(() => Promise.resolve());
    for (let position = 0, turn = 0; position < size && !stop; turn = (turn + 1) % SEND_BUFFERS) {
      await taken[turn];
      const buffer = buffers[turn] as Buffer;
      const { bytesRead } = await handle.read(buffer, 0, Math.min(MiB, size - position), position);
      if (bytesRead === 0) break;
      position += bytesRead;
      taken[turn] = new Promise<void>((resolve) => req.write(buffer.subarray(0, bytesRead), () => resolve()));
    }
    req.end();
    return await answered;
  } finally {
    await handle.close();
  }
}

/** Both steps of `POST /ipfs/?size=`: the new CID and the step-2 time. */
export async function uploadThroughApi(server: ServeProcess, file: string, size: number): Promise<{ cid: string; ms: number; totalMs: number }> {
  const started = performance.now();
  const url = await uploadAddress(server, '/ipfs/', { size });
  const t0 = performance.now();
  const answer = await postFile(url, file, size);
  const ms = performance.now() - t0;
  if (answer.status !== 201) throw new Error(`upload: ${answer.status} ${answer.body}`);
  return { cid: String(answer.headers['ipfs-hash']), ms, totalMs: performance.now() - started };
}

async function baselineImport(file: string, dir: string): Promise<{ cid: CID; ms: number }> {
  const store = new FsBlockstore(dir);
  await store.open();
  const t0 = performance.now();
  let cid: CID | undefined;
  for await (const entry of importer([{ content: createReadStream(file, { highWaterMark: MiB }) }], store, CONTRACT_OPTIONS)) cid = entry.cid;
  const ms = performance.now() - t0;
  await store.close();
  if (!cid) throw new Error('importer gave no CID');
  return { cid, ms };
}

/** The smallest of a list (best-of-N: on a shared machine, the run least disturbed by neighbours). */
export function best(values: readonly number[]): number {
  return Math.min(...values);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export async function run(args: readonly string[]): Promise<void> {
  const size = sizeFlag(args, 1024 * MiB);
  const runs = numberFlag(args, 'runs', 3);
  const work = await mkdtemp(join(tmpdir(), 'pinfold-bench-import-'));
  const file = join(work, 'random.bin');
  let server: ServeProcess | null = null;
  try {
    process.stdout.write(
      `import benchmark: ${(size / MiB).toFixed(0)} MiB of random data, ${runs} runs each side (fresh data every run); step 2 sent by ${curlAvailable() ? 'curl' : 'a Node client (no curl here)'}\n`,
    );
    server = await startServe();
    // Warm-up: JIT, hash workers and the packs, on 8 MiB that does not count.
    const warm = join(work, 'warm.bin');
    await writeRandomFile(warm, 8 * MiB);
    await uploadThroughApi(server, warm, 8 * MiB);

    const pinfoldMs: number[] = [];
    const baselineMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      // New bytes every run, so neither side finds its blocks already stored.
      await writeRandomFile(file, size);
      flushDisk();
      const pinfold = await uploadThroughApi(server, file, size);
      flushDisk();
      const store = join(work, 'blockstore-fs');
      const baseline = await baselineImport(file, store);
      await rm(store, { recursive: true, force: true });
      if (baseline.cid.toString() !== pinfold.cid) throw new Error(`CIDs differ: pinfold ${pinfold.cid}, baseline ${baseline.cid.toString()}`);
      pinfoldMs.push(pinfold.totalMs);
      baselineMs.push(baseline.ms);
      process.stdout.write(
        `run ${i + 1}: pinfold ${(pinfold.totalMs / 1000).toFixed(2)} s ${mbps(size, pinfold.totalMs).toFixed(0)} MB/s (both steps, loopback HTTP); ` +
          `baseline ${(baseline.ms / 1000).toFixed(2)} s ${mbps(size, baseline.ms).toFixed(0)} MB/s (ipfs-unixfs-importer + blockstore-fs in process); same CID\n`,
      );
    }
    const serverRss = server.peakRssMiB();
    const benchRss = selfPeakRssMiB();
    process.stdout.write(`peak RSS: pinfold server ${serverRss.toFixed(0)} MiB; bench process (client + baseline) ${benchRss.toFixed(0)} MiB\n`);
    const ratio = best(baselineMs) / best(pinfoldMs);
    const medianRatio = median(baselineMs) / median(pinfoldMs);
    process.stdout.write(
      `RESULT import ratio=${ratio.toFixed(3)} median_ratio=${medianRatio.toFixed(3)} size_mib=${(size / MiB).toFixed(0)} runs=${runs} pinfold_mbps=${mbps(size, best(pinfoldMs)).toFixed(0)} baseline_mbps=${mbps(size, best(baselineMs)).toFixed(0)} pinfold_rss_mib=${serverRss.toFixed(0)} baseline_rss_mib=${benchRss.toFixed(0)}\n`,
    );
  } finally {
    await server?.stop();
    await rm(work, { recursive: true, force: true });
  }
}
