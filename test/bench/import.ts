import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { FsBlockstore } from 'blockstore-fs';
import { importer } from 'ipfs-unixfs-importer';
import { fixedSize } from 'ipfs-unixfs-importer/chunker';
import { balanced } from 'ipfs-unixfs-importer/layout';
import type { CID } from 'multiformats/cid';

/**
 * `npm run bench -- import [--size 1G]`: one file of random bytes uploaded through the API (step 1 and a
 * raw-body step 2 over loopback HTTP, to a `pinfold serve` child process on a fresh data folder) against
 * ipfs-unixfs-importer + blockstore-fs importing the same file in this process with the contract options.
 * Both read the same temp file (in the page cache after it was written). Target: ratio >= 1.5.
 *
 * This file also holds the helpers the other content benchmarks (car, gateway, gc) share.
 */

export const MiB = 1024 * 1024;
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export function flag(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] : args[i + 1];
}

/** `--size 1G`, `64M`, `4096K` or plain bytes. */
export function sizeFlag(args: readonly string[], fallback: number): number {
  const text = flag(args, 'size');
  if (text === undefined) return fallback;
  const match = /^(\d+(?:\.\d+)?)([KMG]?)i?B?$/i.exec(text);
  if (!match) throw new Error('--size must be bytes or a number with K, M or G');
  const unit = { '': 1, K: 1024, M: MiB, G: 1024 * MiB }[(match[2] as string).toUpperCase()] as number;
  return Math.round(Number(match[1]) * unit);
}

export function numberFlag(args: readonly string[], name: string, fallback: number): number {
  const text = flag(args, name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

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

/** A child's peak resident set (VmHWM), MiB; NaN where /proc is not there. */
export function childPeakRssMiB(pid: number | undefined): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export interface ServeProcess {
  url: string;
  key: { access_key: string; access_secret: string };
  dataDir: string;
  child: ChildProcess;
  peakRssMiB(): number;
  stop(): Promise<void>;
}

/** `pinfold serve` from source in a child process on a fresh temp data folder: the service as users run it. */
export async function startServe(extraArgs: readonly string[] = []): Promise<ServeProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'pinfold-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'main/cli.ts', 'serve', '--data', dataDir, '--port', '0', '--gc-interval', '86400', ...extraArgs], {
    cwd: repoRoot,
    env: { ...process.env, PINFOLD_LOG: 'error' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /Pinfold listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`pinfold serve exited with ${code}: ${out}`)));
  });
  const key = JSON.parse(await readFile(join(dataDir, 'owner-key.json'), 'utf8')) as ServeProcess['key'];
  return {
    url,
    key,
    dataDir,
    child,
    peakRssMiB: () => childPeakRssMiB(child.pid),
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

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

export interface Posted {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Step 2: streams a file as the raw body. */
export function postFile(url: string, file: string, size: number): Promise<Posted> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/octet-stream', 'content-length': size } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    createReadStream(file, { highWaterMark: MiB }).pipe(req);
  });
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

export async function run(args: readonly string[]): Promise<void> {
  const size = sizeFlag(args, 1024 * MiB);
  const work = await mkdtemp(join(tmpdir(), 'pinfold-bench-import-'));
  const file = join(work, 'random.bin');
  let server: ServeProcess | null = null;
  try {
    process.stdout.write(`import benchmark: ${(size / MiB).toFixed(0)} MiB of random data\n`);
    await writeRandomFile(file, size);
    server = await startServe();
    // Warm-up: JIT, hash workers and the packs, on 8 MiB that does not count.
    const warm = join(work, 'warm.bin');
    await writeRandomFile(warm, 8 * MiB);
    await uploadThroughApi(server, warm, 8 * MiB);

    const pinfold = await uploadThroughApi(server, file, size);
    const serverRss = server.peakRssMiB();
    process.stdout.write(
      `pinfold   ${(pinfold.totalMs / 1000).toFixed(2)} s  ${mbps(size, pinfold.totalMs).toFixed(0)} MB/s (both steps, loopback HTTP)   server peak RSS ${serverRss.toFixed(0)} MiB\n`,
    );
    await server.stop();
    server = null;

    const baseline = await baselineImport(file, join(work, 'blockstore-fs'));
    process.stdout.write(`baseline  ${(baseline.ms / 1000).toFixed(2)} s  ${mbps(size, baseline.ms).toFixed(0)} MB/s (ipfs-unixfs-importer + blockstore-fs in process)\n`);
    if (baseline.cid.toString() !== pinfold.cid) throw new Error(`CIDs differ: pinfold ${pinfold.cid}, baseline ${baseline.cid.toString()}`);
    process.stdout.write(`same CID ${pinfold.cid}\n`);
    const benchRss = selfPeakRssMiB();
    process.stdout.write(`peak RSS: pinfold server ${serverRss.toFixed(0)} MiB; bench process (client + baseline) ${benchRss.toFixed(0)} MiB\n`);
    const ratio = baseline.ms / pinfold.totalMs;
    process.stdout.write(
      `RESULT import ratio=${ratio.toFixed(3)} size_mib=${(size / MiB).toFixed(0)} pinfold_mbps=${mbps(size, pinfold.totalMs).toFixed(0)} baseline_mbps=${mbps(size, baseline.ms).toFixed(0)} pinfold_rss_mib=${serverRss.toFixed(0)} baseline_rss_mib=${benchRss.toFixed(0)}\n`,
    );
  } finally {
    await server?.stop();
    await rm(work, { recursive: true, force: true });
  }
}
