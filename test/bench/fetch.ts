import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CarWriter } from '@ipld/car/writer';
import { importer, type ImportCandidate } from 'ipfs-unixfs-importer';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { CONTRACT_OPTIONS, MiB, mbps, writeRandomFile } from './import.js';
import { curlAvailable, curlPost } from './lib/curl-post.js';
import { flushDisk } from './lib/flush-disk.js';
import { numberFlag, sizeFlag } from './lib/flags.js';
import { buildMain, startServe, type ServeProcess } from './lib/serve-process.js';

/**
 * `npm run bench -- fetch [--size 1G] [--files 10000] [--many 1000] [--runs 2]` (issue "Pinfold on the IPFS
 * network"): B pins, from A over loopback, content only A holds; A is a compiled `pinfold serve
 * --public-gateway`, B a compiled `pinfold serve --fetch-from A --routing A`, both on fresh data folders.
 *
 * 1. `fetch`: a `--size` file (1 GiB) and a `--files` folder (10,000 files of 1 KiB, a HAMT). Pinfold: from
 *    `pin/add` to `pinned` on B. Baseline: `curl` of the same CAR from A (`?format=car`) piped into a second
 *    curl that sends it as B's `dag/import` step 2 (so the same bytes cross the same loopback once, and B
 *    verifies and stores them the same way). The sides alternate, best of `--runs`, each on fresh data
 *    folders with the disk flushed. ratio = baseline time / Pinfold time, per DAG; target >= 0.8 each.
 * 2. `fetch-many`: `--many` (1,000) small CIDs pinned on B at once (pin/add of each, 50 at a time): all must
 *    turn `pinned`; p50 and p99 of the time from each pin's add to the first list that shows it pinned.
 */

interface Server {
  url: string;
  headers: Record<string, string>;
}

const ts = (): string => String(Math.floor(Date.now() / 1000));

async function api<T>(server: Server, method: string, path: string, query: Record<string, string> = {}): Promise<T> {
  const search = new URLSearchParams({ ...query, ts: ts() });
  const response = await fetch(`${server.url}${path}?${search.toString()}`, { method, headers: server.headers });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

const serverOf = (serve: ServeProcess): Server => ({
  url: serve.url,
  headers: { 'X-Access-Key': serve.key.access_key, 'X-Access-Secret': serve.key.access_secret },
});

/** A CARv1 of the UnixFS DAG of `candidates`, streamed to `carPath`; its root (the last entry) patched into the header. */
async function writeCar(candidates: Iterable<ImportCandidate>, carPath: string, options: object): Promise<{ root: CID; blocks: number }> {
  const placeholder = CID.createV1(0x70, await sha256.digest(new Uint8Array(1)));
  const { writer, out } = CarWriter.create([placeholder]);
  const written = pipeline(Readable.from(out), createWriteStream(carPath));
  let blocks = 0;
  const store = {
    async put(cid: CID, bytes: Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<CID> {
      if (!(bytes instanceof Uint8Array)) throw new TypeError('expected bytes');
      await writer.put({ cid, bytes });
      blocks++;
      return cid;
    },
  };
  let root: CID | undefined;
  for await (const entry of importer(candidates, store, options)) root = entry.cid;
  await writer.close();
  await written;
  if (!root) throw new Error('importer gave no root');
  const fd = await open(carPath, 'r+');
  try {
    await CarWriter.updateRootsInFile(fd, [root]);
  } finally {
    await fd.close();
  }
  return { root, blocks };
}

/** A CAR through both steps of A's `dag/import` (roots pinned). */
async function importCar(server: Server, carPath: string): Promise<void> {
  const size = (await stat(carPath)).size;
  const step1 = await api<{ url: string }>(server, 'POST', '/api/v0/dag/import', { size: String(size) });
  const answer = await curlPost(step1.url, carPath);
  if (answer.status !== 200) throw new Error(`dag/import step 2: ${answer.status} ${answer.body}`);
}

/** Polls B's pin until it is `pinned` (every 20 ms); fails on `failure` or after the deadline. */
async function untilPinned(server: Server, cid: string, deadlineMs = 600_000): Promise<void> {
  const deadline = performance.now() + deadlineMs;
  for (;;) {
    const pin = await api<{ status: string }>(server, 'GET', `/api/v0/pin/${cid}`);
    if (pin.status === 'pinned') return;
    if (pin.status === 'failure') throw new Error(`pin ${cid} failed`);
    if (performance.now() > deadline) throw new Error(`pin ${cid} not pinned in time (${pin.status})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Reads A's CAR of `cid` whole, untimed, and answers its size: before each side's timed run, so both meet
 * A with its caches as warm (and the baseline's step 1 can declare the size).
 */
async function warmCar(a: Server, cid: string): Promise<number> {
  const answer = await fetch(`${a.url}/ipfs/${cid}?format=car&ts=${ts()}`, { headers: a.headers });
  let size = 0;
  for await (const chunk of answer.body ?? []) size += (chunk as Uint8Array).byteLength;
  return size;
}

/** The baseline: A's CAR of `cid` piped by curl into B's dag/import step 2. */
async function curlPipe(a: Server, b: Server, cid: string): Promise<number> {
  const carUrl = `${a.url}/ipfs/${cid}?format=car&ts=${ts()}`;
  const size = await warmCar(a, cid);
  const step1 = await api<{ url: string }>(b, 'POST', '/api/v0/dag/import', { size: String(size) });
  const target = new URL(step1.url);
  const headers = Object.entries(a.headers)
    .map(([name, value]) => `-H '${name}: ${value}'`)
    .join(' ');
  const script =
    `curl -sS --fail ${headers} '${carUrl}' | ` +
    `curl -sS --fail -X POST -H 'content-type: application/octet-stream' -H 'Expect:' -T - ` +
    `--request-target '${target.pathname}${target.search}' '${target.origin}' -o /dev/null`;
  const started = performance.now();
  await new Promise<void>((resolve, reject) =>
    execFile('bash', ['-c', script], (error) => (error ? reject(new Error(`curl | dag/import failed: ${error.message}`)) : resolve())),
  );
  return performance.now() - started;
}

interface Side {
  ms: number;
  cpu: number;
}

async function pinfoldSide(a: Server, cid: string): Promise<Side> {
  const b = await startServe({ compiled: true, args: ['--fetch-from', a.url, '--routing', a.url] });
  try {
    const server = serverOf(b);
    await warmCar(a, cid);
    flushDisk();
    const cpu0 = b.cpuSeconds();
    const started = performance.now();
    await api(server, 'POST', '/api/v0/pin/add', { arg: cid });
    await untilPinned(server, cid);
    return { ms: performance.now() - started, cpu: b.cpuSeconds() - cpu0 };
  } finally {
    await b.stop();
  }
}

async function baselineSide(a: Server, cid: string): Promise<Side> {
  const b = await startServe({ compiled: true, args: ['--offline'] });
  try {
    flushDisk();
    const cpu0 = b.cpuSeconds();
    const ms = await curlPipe(a, serverOf(b), cid);
    return { ms, cpu: b.cpuSeconds() - cpu0 };
  } finally {
    await b.stop();
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/** `--many` small CIDs A holds, pinned on B at once; each pin's time from its add to the list showing it pinned. */
async function fetchMany(a: Server, aUrl: string, many: number): Promise<number[]> {
  const cids: string[] = [];
  for (let i = 0; i < many; i++) {
    const bytes = randomBytes(256);
    const step1 = await api<{ url: string }>(a, 'POST', '/ipfs/', { size: String(bytes.byteLength) });
    const answer = await fetch(step1.url, { method: 'POST', body: bytes, headers: { 'content-type': 'application/octet-stream' } });
    const cid = answer.headers.get('ipfs-hash');
    if (answer.status !== 201 || cid === null) throw new Error(`upload to A failed: ${answer.status}`);
    cids.push(cid);
  }
  const b = await startServe({ compiled: true, args: ['--fetch-from', aUrl, '--routing', aUrl] });
  try {
    const server = serverOf(b);
    const added = new Map<string, number>();
    const done = new Map<string, number>();
    const adding = (async () => {
      for (let i = 0; i < cids.length; i += 50) {
        await Promise.all(
          cids.slice(i, i + 50).map(async (cid) => {
            added.set(cid, performance.now());
            await api(server, 'POST', '/api/v0/pin/add', { arg: cid });
          }),
        );
      }
    })();
    const deadline = performance.now() + 600_000;
    while (done.size < cids.length) {
      if (performance.now() > deadline) throw new Error(`only ${done.size} of ${cids.length} pins pinned in time`);
      const page = await api<Array<{ cid: string; status: string }>>(server, 'GET', '/api/v0/pin', { status: 'pinned', limit: '1000' });
      const now = performance.now();
      for (const pin of page) if (!done.has(pin.cid) && added.has(pin.cid)) done.set(pin.cid, now);
      const failed = await api<unknown[]>(server, 'GET', '/api/v0/pin', { status: 'failure', limit: '1' });
      if (failed.length > 0) throw new Error('a pin failed');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await adding;
    return cids.map((cid) => (done.get(cid) as number) - (added.get(cid) as number)).sort((x, y) => x - y);
  } finally {
    await b.stop();
  }
}

export async function run(args: readonly string[]): Promise<void> {
  if (!curlAvailable()) throw new Error('the fetch benchmark needs curl for its baseline');
  const size = sizeFlag(args, 1024 * MiB);
  const files = numberFlag(args, 'files', 10_000);
  const many = numberFlag(args, 'many', 1000);
  const runs = numberFlag(args, 'runs', 2);
  const work = await mkdtemp(join(tmpdir(), 'pinfold-bench-fetch-'));
  let a: ServeProcess | undefined;
  try {
    process.stdout.write('building dist/ for pinfold serve...\n');
    buildMain();
    a = await startServe({ compiled: true, args: ['--public-gateway', '--offline'] });
    const aServer = serverOf(a);

    process.stdout.write(`A holds a ${(size / MiB).toFixed(0)} MiB file and a folder of ${files} files of 1 KiB...\n`);
    const filePath = join(work, 'file.bin');
    await writeRandomFile(filePath, size);
    const fileCar = await writeCar([{ path: 'file.bin', content: createReadStream(filePath, { highWaterMark: MiB }) }], join(work, 'file.car'), {
      ...CONTRACT_OPTIONS,
    });
    await importCar(aServer, join(work, 'file.car'));
    const folderCar = await writeCar(
      (function* () {
        for (let i = 0; i < files; i++) yield { path: `folder/f${String(i).padStart(5, '0')}.bin`, content: randomBytes(1024) };
      })(),
      join(work, 'folder.car'),
      { ...CONTRACT_OPTIONS, shardSplitThresholdBytes: 262_144, wrapWithDirectory: false },
    );
    await importCar(aServer, join(work, 'folder.car'));
    await rm(join(work, 'file.car'));
    await rm(join(work, 'folder.car'));

    const dags = [
      { label: 'file', cid: fileCar.root.toString(), bytes: size, blocks: fileCar.blocks },
      { label: 'folder', cid: folderCar.root.toString(), bytes: files * 1024, blocks: folderCar.blocks },
    ];
    const figures: string[] = [];
    const ratios: number[] = [];
    for (const dag of dags) {
      const pinfold: Side[] = [];
      const baseline: Side[] = [];
      for (let i = 0; i < runs; i++) {
        // Alternate which side goes first, so neither always runs on a warmer machine.
        const order = i % 2 === 0 ? (['pinfold', 'baseline'] as const) : (['baseline', 'pinfold'] as const);
        for (const side of order) {
          if (side === 'pinfold') pinfold.push(await pinfoldSide(aServer, dag.cid));
          else baseline.push(await baselineSide(aServer, dag.cid));
        }
        process.stdout.write(
          `${dag.label} run ${i + 1}: pinfold fetch ${(pinfold.at(-1) as Side).ms.toFixed(0)} ms (${(pinfold.at(-1) as Side).cpu.toFixed(2)} CPU-s of B); ` +
            `curl | dag/import ${(baseline.at(-1) as Side).ms.toFixed(0)} ms (${(baseline.at(-1) as Side).cpu.toFixed(2)} CPU-s of B)\n`,
        );
      }
      const best = Math.min(...pinfold.map((side) => side.ms));
      const bestBaseline = Math.min(...baseline.map((side) => side.ms));
      const ratio = bestBaseline / best;
      ratios.push(ratio);
      figures.push(
        `${dag.label}_ratio=${ratio.toFixed(3)} ${dag.label}_mbps=${mbps(dag.bytes, best).toFixed(1)} ${dag.label}_blocks_per_s=${((dag.blocks / best) * 1000).toFixed(0)} ` +
          `${dag.label}_baseline_mbps=${mbps(dag.bytes, bestBaseline).toFixed(1)} ${dag.label}_cpu_s=${Math.min(...pinfold.map((side) => side.cpu)).toFixed(2)} ` +
          `${dag.label}_baseline_cpu_s=${Math.min(...baseline.map((side) => side.cpu)).toFixed(2)}`,
      );
    }
    process.stdout.write(`target: ratio >= 0.8 for each (${ratios.every((ratio) => ratio >= 0.8) ? 'met' : 'NOT met'})\n`);
    process.stdout.write(`RESULT fetch ratio=${Math.min(...ratios).toFixed(3)} ${figures.join(' ')}\n`);

    const times = await fetchMany(aServer, a.url, many);
    process.stdout.write(
      `RESULT fetch-many pinned=${times.length}/${many} p50_ms=${percentile(times, 50).toFixed(0)} p99_ms=${percentile(times, 99).toFixed(0)} max_ms=${(times.at(-1) ?? 0).toFixed(0)}\n`,
    );
  } finally {
    await a?.stop();
    await rm(work, { recursive: true, force: true });
  }
}
