import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { keyedGet, pathBlocks } from '../helpers/dag-path.js';
import { MiB } from './import.js';
import { numberFlag } from './lib/flags.js';
import { buildMain, startServe, type ServeProcess } from './lib/serve-process.js';

/**
 * `npm run bench -- follow [--changes N] [--files N] [--idle S] [--quick]` (issue 24, "Follow a folder"): A is a
 * compiled `pinfold serve --public-gateway` with sync folders whose names are public; B a compiled `pinfold serve
 * --fetch-from A --routing A` following them through A's gateway (`<A>/ipns/<name>`, so A pushes), both on
 * loopback, with the defaults.
 *
 * 1. Latency, over `--changes` (50) changes: from a file saved in A's folder to the same bytes in B's folder
 *    (B's disk read every 5 ms). Baseline, the same changes in the same run: A's own sync latency, from the save
 *    to A's gateway serving the file under its name (`/ipns/<name>/<file>`), which B cannot beat. Target p50 < 3 s.
 * 2. Idle: B's CPU seconds (from /proc) over `--idle` (60) s while it follows 10 folders, nothing changing.
 *    Target < 0.2 CPU-s per minute.
 * 3. Ratio: one 1 MiB file changed in a `--files` (100,000) file folder (one directory, a HAMT) that B already
 *    holds: B's ingress for the change / (1 MiB + the blocks of the file's directory path, as ipfs-unixfs-exporter
 *    reading that file from A finds them). Target < 1.5.
 * `--quick` (or PINFOLD_BENCH_QUICK=1): 5 changes, 10,000 files, 10 s idle, to check the benchmark works.
 */

interface Api {
  url: string;
  key: { access_key: string; access_secret: string };
}

interface Row {
  id: string;
  root: string;
  state: string;
  pending: number;
  error: string;
  ipns_name: string;
}

const SMALL_FOLDERS = 10;
const ts = (): string => String(Math.floor(Date.now() / 1000));
const apiOf = (serve: ServeProcess): Api => ({ url: serve.url, key: serve.key });
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function api<T>(server: Api, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}${path}${path.includes('?') ? '&' : '?'}ts=${ts()}`, {
    method,
    headers: { 'X-Access-Key': server.key.access_key, 'X-Access-Secret': server.key.access_secret },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

async function rowOf(server: Api, id: string): Promise<Row> {
  const row = (await api<Row[]>(server, 'GET', '/api/v0/sync')).find((candidate) => candidate.id === id);
  if (row === undefined) throw new Error(`folder ${id} not listed`);
  return row;
}

/** Polls until `probe` answers, every `everyMs`; fails after `deadlineMs`. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, deadlineMs = 600_000, everyMs = 50): Promise<T> {
  const deadline = performance.now() + deadlineMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(everyMs);
  }
}

/** A's folder settled (idle, nothing pending) at a root other than `not`: that root. */
async function settled(a: Api, id: string, not = ''): Promise<string> {
  return until(`A's folder ${id} to settle`, async () => {
    const row = await rowOf(a, id);
    return row.state === 'idle' && row.pending === 0 && row.root !== '' && row.root !== not ? row.root : undefined;
  });
}

/** A sync folder on A whose name is public: its id, name and root. */
async function publicFolder(a: Api, path: string): Promise<{ id: string; name: string; root: string }> {
  const added = await api<Row>(a, 'POST', '/api/v0/sync/add', { path });
  await api(a, 'POST', `/api/v0/name/public?arg=${added.ipns_name}&on=true`);
  return { id: added.id, name: added.ipns_name, root: await settled(a, added.id) };
}

/** B follows `name` through A's gateway into `path`; answers once B holds `root`. */
async function followOnB(a: Api, b: Api, name: string, path: string, root: string): Promise<string> {
  const row = await api<Row>(b, 'POST', '/api/v0/sync/follow', { name: `${a.url}/ipns/${name}`, path });
  await heldOnB(b, row.id, root);
  return row.id;
}

async function heldOnB(b: Api, id: string, root: string): Promise<void> {
  await until(`B's folder ${id} to hold ${root}`, async () => {
    const row = await rowOf(b, id);
    if (row.state === 'error') process.stdout.write(`  (B's folder shows an error: ${row.error})\n`);
    return row.root === root && row.state === 'idle' ? true : undefined;
  });
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

async function sameBytes(path: string, want: Buffer): Promise<boolean> {
  try {
    return (await readFile(path)).equals(want);
  } catch {
    return false;
  }
}

/** Each change: saved on A; timed to A's gateway serving it (the baseline) and to B's disk holding it. */
async function latencies(a: Api, name: string, folderA: string, folderB: string, changes: number): Promise<{ follow: number[]; own: number[] }> {
  const follow: number[] = [];
  const own: number[] = [];
  for (let i = 0; i < changes; i++) {
    const rel = `change-${String(i).padStart(4, '0')}.txt`;
    const bytes = Buffer.from(`change ${i} ${randomBytes(2048).toString('hex')}\n`);
    const start = performance.now();
    await writeFile(join(folderA, rel), bytes);
    const served = until(
      `change ${i} served by A`,
      async () => {
        const response = await fetch(`${a.url}/ipns/${name}/${rel}?ts=${ts()}`, {
          headers: { 'X-Access-Key': a.key.access_key, 'X-Access-Secret': a.key.access_secret },
        });
        const body = Buffer.from(await response.arrayBuffer());
        return response.status === 200 && body.equals(bytes) ? performance.now() - start : undefined;
      },
      60_000,
      5,
    );
    const onDisk = until(
      `change ${i} on B's disk`,
      async () => ((await sameBytes(join(folderB, rel), bytes)) ? performance.now() - start : undefined),
      60_000,
      5,
    );
    const [ownMs, followMs] = await Promise.all([served, onDisk]);
    own.push(ownMs);
    follow.push(followMs);
  }
  return { follow: follow.sort((x, y) => x - y), own: own.sort((x, y) => x - y) };
}

async function stats(server: Api): Promise<{ ingress: number }> {
  return api<{ ingress: number }>(server, 'GET', '/api/v0/stats');
}

export async function run(args: readonly string[]): Promise<void> {
  const quick = args.includes('--quick') || process.env['PINFOLD_BENCH_QUICK'] === '1';
  const changes = numberFlag(args, 'changes', quick ? 5 : 50);
  const files = numberFlag(args, 'files', quick ? 10_000 : 100_000);
  const idleSeconds = numberFlag(args, 'idle', quick ? 10 : 60);
  const work = await mkdtemp(join(tmpdir(), 'pinfold-bench-follow-'));
  // Files the follower removes go to a trash of the benchmark's own, never the user's.
  const env = { XDG_DATA_HOME: join(work, 'xdg') };
  let a: ServeProcess | undefined;
  let b: ServeProcess | undefined;
  try {
    process.stdout.write('building dist/ for pinfold serve...\n');
    buildMain();
    a = await startServe({ compiled: true, args: ['--public-gateway', '--offline'], env });
    b = await startServe({ compiled: true, args: ['--fetch-from', a.url, '--routing', a.url], env });
    const aApi = apiOf(a);
    const bApi = apiOf(b);

    // 1. Latency, on the first of the ten followed folders.
    const folders: { a: string; b: string; name: string; idA: string; id: string }[] = [];
    for (let f = 0; f < SMALL_FOLDERS; f++) {
      const folderA = join(work, `a-${f}`);
      await mkdir(join(folderA, 'docs'), { recursive: true });
      for (let i = 0; i < 20; i++) await writeFile(join(folderA, 'docs', `doc-${i}.txt`), `folder ${f} doc ${i} ${randomBytes(512).toString('hex')}\n`);
      const made = await publicFolder(aApi, folderA);
      const folderB = join(work, `b-${f}`);
      folders.push({ a: folderA, b: folderB, name: made.name, idA: made.id, id: await followOnB(aApi, bApi, made.name, folderB, made.root) });
    }
    process.stdout.write(`B follows ${SMALL_FOLDERS} folders of A; ${changes} changes timed in the first...\n`);
    const first = folders[0] as (typeof folders)[number];
    const timed = await latencies(aApi, first.name, first.a, first.b, changes);
    const p50 = percentile(timed.follow, 50);
    const p99 = percentile(timed.follow, 99);
    process.stdout.write(
      `saved on A -> same bytes on B's disk: p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, max ${(timed.follow.at(-1) ?? 0).toFixed(0)} ms (target p50 < 3000 ms)\n` +
        `baseline, saved on A -> served by A's gateway under its name: p50 ${percentile(timed.own, 50).toFixed(0)} ms, p99 ${percentile(timed.own, 99).toFixed(0)} ms\n`,
    );

    // 2. Idle: the ten folders followed, nothing changing, once B has settled.
    for (const folder of folders) await heldOnB(bApi, folder.id, (await rowOf(aApi, folder.idA)).root);
    await pause(5_000);
    const cpuBefore = b.cpuSeconds();
    await pause(idleSeconds * 1000);
    const idleCpu = ((b.cpuSeconds() - cpuBefore) * 60) / idleSeconds;
    process.stdout.write(`idle CPU of B following ${SMALL_FOLDERS} folders: ${idleCpu.toFixed(3)} CPU-s/min over ${idleSeconds} s (target < 0.2)\n`);

    // 3. Ratio: one 1 MiB file changed in a large folder B already holds.
    process.stdout.write(`A syncs a folder of ${files} files (one of 1 MiB); B follows it...\n`);
    const bigA = join(work, 'big-a');
    await mkdir(bigA, { recursive: true });
    for (let i = 0; i < files; i += 1000) {
      await Promise.all(
        Array.from({ length: Math.min(1000, files - i) }, (_, j) => writeFile(join(bigA, `f${String(i + j).padStart(6, '0')}.txt`), `file ${i + j}\n`)),
      );
    }
    const changed = 'the-changed-one.bin';
    await writeFile(join(bigA, changed), randomBytes(MiB));
    const big = await publicFolder(aApi, bigA);
    const started = performance.now();
    const bigB = await followOnB(aApi, bApi, big.name, join(work, 'big-b'), big.root);
    process.stdout.write(`first copy of ${files} files on B: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    const ingressBefore = (await stats(bApi)).ingress;
    await writeFile(join(bigA, changed), randomBytes(MiB));
    const root = await settled(aApi, big.id, big.root);
    await heldOnB(bApi, bigB, root);
    const fetched = (await stats(bApi)).ingress - ingressBefore;
    const path = await pathBlocks(keyedGet(aApi.url, aApi.key), root, changed);
    const ratio = fetched / path.bytes;
    process.stdout.write(
      `one 1 MiB file changed in ${files} files: B fetched ${fetched} B; the file ${path.fileBytes} B + its directory path ${path.bytes - path.fileBytes} B ` +
        `= ${path.bytes} B in ${path.cids.length} blocks; ratio ${ratio.toFixed(3)} (target < 1.5)\n`,
    );

    process.stdout.write(`RESULT follow ratio=${ratio.toFixed(3)} p50_ms=${p50.toFixed(0)} p99_ms=${p99.toFixed(0)} idle_cpu_s=${idleCpu.toFixed(3)}\n`);
  } finally {
    await b?.stop();
    await a?.stop();
    await rm(work, { recursive: true, force: true });
  }
}
