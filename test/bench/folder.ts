import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { CarWriter } from '@ipld/car/writer';
import { MemoryBlockstore } from 'blockstore-core/memory';
import { CID } from 'multiformats/cid';
import { EMPTY_DIRECTORY_CID, editDirectory } from '../../main/content/directory/index.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { textFlag } from './lib/flags.js';

/**
 * `npm run bench -- folder [--sizes 1000,1000000] [--ops 1000]`: folder operations at O(changed) cost,
 * measured through the real service. For each size a fresh server (createApp: PinfoldBlockstore pack
 * files with their fsyncs, SQLite, auth, pins) on a temp data folder gets a directory of N entries by CAR
 * import over HTTP, times its folder import (PUT /api/v0/folder/{cid} over HTTP), then times operations
 * of one add and one remove each, chained root to root, as POST /api/v0/folder/operation requests.
 *
 * The operations go through the HTTP API in process (fastify `inject`: routing, access-key check, JSON
 * body, every rule, the pins of each added CID, shard reads from pack files, block writes, the folder
 * index), not through a socket: a loopback round trip from a client in the same process costs 2-5 ms of
 * transport alone, the same at every size, which would hide the cost being measured and flatten the
 * ratio. The first 100 operations warm the JIT and the shard cache and are not counted. Building the
 * N-entry directory is not part of the result (it is printed).
 */

const POOL = 16;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

async function ok<T>(what: string, response: Promise<{ status: number; text: string; json: T }>): Promise<T> {
  const answer = await response;
  if (answer.status !== 200) throw new Error(`${what}: ${answer.status} ${answer.text}`);
  return answer.json;
}

/** Two-step upload: step 1 answers the signed address, step 2 streams the body to it. */
async function upload(
  server: TestServer,
  path: string,
  query: Record<string, string | number>,
  body: NonNullable<RequestInit['body']>,
  size: number,
): Promise<Response> {
  const first = await ok<{ data: { url: string } }>(`step 1 ${path}`, call(server, 'POST', path, { key: server.owner, query: { ...query, size } }));
  const init: RequestInit & { duplex?: 'half' } = { method: 'POST', body, headers: { 'content-type': 'application/octet-stream' }, duplex: 'half' };
  return fetch(first.data.url, init);
}

interface SizeReport {
  size: number;
  kind: string;
  buildMs: number;
  carMs: number;
  importMs: number;
  p50: number;
  p99: number;
  max: number;
}

async function measureSize(size: number, ops: number): Promise<SizeReport> {
  const work = await mkdtemp(join(tmpdir(), 'pinfold-bench-folder-'));
  const server = await startTestServer({ dataDir: join(work, 'data'), gcIntervalSeconds: 86_400 });
  try {
    const pool: Array<{ cid: CID; length: number }> = [];
    for (let i = 0; i < POOL; i++) {
      const bytes = new TextEncoder().encode(`pool file ${i}\n`);
      const response = await upload(server, '/ipfs/', {}, bytes, bytes.length);
      if (response.status !== 201) throw new Error(`upload: ${response.status} ${await response.text()}`);
      const cid = response.headers.get('ipfs-hash') as string;
      await ok('pin add', call(server, 'POST', '/api/v0/pin/add', { key: server.owner, query: { arg: cid } }));
      pool.push({ cid: CID.parse(cid), length: bytes.length });
    }
    const child = (i: number) => pool[i % POOL] as { cid: CID; length: number };

    // The directory is built locally and imported as a CAR, the way a client brings a big DAG.
    let started = performance.now();
    const local = new MemoryBlockstore();
    const built = await editDirectory(local, EMPTY_DIRECTORY_CID, {
      add: Array.from({ length: size }, (_, i) => [`file-${i}.bin`, child(i).cid, child(i).length] as const),
    });
    const buildMs = performance.now() - started;
    const carPath = join(work, 'folder.car');
    const { writer, out } = CarWriter.create([built.cid]);
    const file = createWriteStream(carPath);
    const piped = finished(Readable.from(out).pipe(file));
    for await (const { cid, bytes } of local.getAll()) {
      const chunks: Uint8Array[] = [];
      for await (const chunk of bytes instanceof Uint8Array ? [bytes] : bytes) chunks.push(chunk);
      await writer.put({ cid, bytes: chunks.length === 1 ? (chunks[0] as Uint8Array) : new Uint8Array(Buffer.concat(chunks)) });
    }
    await writer.close();
    await piped;
    const carBytes = (await stat(carPath)).size;
    started = performance.now();
    const imported = await upload(server, '/api/v0/dag/import', {}, Readable.toWeb(createReadStream(carPath)), carBytes);
    if (imported.status !== 200) throw new Error(`dag import: ${imported.status} ${await imported.text()}`);
    await imported.text();
    const carMs = performance.now() - started;
    const root = built.cid.toString();

    started = performance.now();
    await ok('folder import', call(server, 'PUT', `/api/v0/folder/${root}`, { key: server.owner }));
    const importMs = performance.now() - started;

    // Remove old names spread over the directory, then the ones this run added: the size stays N and
    // every removed name exists.
    const total = ops + 100;
    const step = Math.max(1, Math.floor(size / total));
    const removable = Array.from({ length: Math.min(size, total) }, (_, i) => `file-${i * step}.bin`);
    const timings: number[] = [];
    let current = root;
    for (let i = 0; i < total; i++) {
      const body = JSON.stringify({ cid: current, add: [[`new-${i}.bin`, child(i).cid.toString()]], remove: [removable.shift() as string] });
      const t0 = performance.now();
      const answer = await server.app.server.inject({
        method: 'POST',
        url: `/api/v0/folder/operation?ts=${Math.floor(Date.now() / 1000)}`,
        headers: { host: '127.0.0.1', 'x-access-key': server.owner.access_key, 'x-access-secret': server.owner.access_secret },
        payload: body,
      });
      const elapsed = performance.now() - t0;
      if (answer.statusCode !== 200) throw new Error(`folder operation: ${answer.statusCode} ${answer.body}`);
      if (i >= 100) timings.push(elapsed);
      current = (JSON.parse(answer.body) as { data: { cid: string } }).data.cid;
      removable.push(`new-${i}.bin`);
    }
    timings.sort((a, b) => a - b);
    return {
      size,
      kind: built.stats.kind,
      buildMs,
      carMs,
      importMs,
      p50: percentile(timings, 50),
      p99: percentile(timings, 99),
      max: timings[timings.length - 1] as number,
    };
  } finally {
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
}

export async function run(args: readonly string[]): Promise<void> {
  const sizes = (textFlag(args, 'sizes') ?? '1000,1000000').split(',').map(Number);
  const ops = Number(textFlag(args, 'ops') ?? '1000');
  if (sizes.length < 2 || sizes.some((n) => !Number.isSafeInteger(n) || n < 1000) || !Number.isSafeInteger(ops) || ops < 1) {
    throw new Error('--sizes takes two or more integers >= 1000 (smallest first), --ops a positive integer');
  }
  const reports: SizeReport[] = [];
  for (const size of sizes) {
    const report = await measureSize(size, ops);
    reports.push(report);
    process.stdout.write(
      `${String(size).padStart(9)} entries (${report.kind}): build ${report.buildMs.toFixed(0)} ms, CAR import ${report.carMs.toFixed(0)} ms, ` +
        `folder import ${report.importMs.toFixed(0)} ms; operation (1 add + 1 remove, HTTP) p50 ${report.p50.toFixed(3)} ms ` +
        `p99 ${report.p99.toFixed(3)} ms max ${report.max.toFixed(3)} ms over ${ops}\n`,
    );
  }
  const first = reports[0] as SizeReport;
  const last = reports[reports.length - 1] as SizeReport;
  const ratio = last.p50 / first.p50;
  process.stdout.write(
    `RESULT folder ratio=${ratio.toFixed(2)} p50_1k_ms=${first.p50.toFixed(3)} p50_1m_ms=${last.p50.toFixed(3)} ` +
      `p99_1m_ms=${last.p99.toFixed(3)} import_1m_s=${(last.importMs / 1000).toFixed(2)}` +
      (first.size === 1000 && last.size === 1_000_000 ? '' : ` sizes=${first.size},${last.size}`) +
      ` target<3 ${ratio < 3 ? 'PASS' : 'FAIL'}\n`,
  );
}
