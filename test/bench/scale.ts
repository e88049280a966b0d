import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, copyFile, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startCephRgw, type CephRgw } from '../helpers/engines/ceph-rgw.js';
import { startPostgres, type PostgresServer } from '../helpers/engines/postgres.js';
import { smallFilesCar } from './gateway.js';
import { authHeaders, MiB, postFile, uploadAddress, writeRandomFile } from './import.js';
import { numberFlag } from './lib/flags.js';
import { measure } from './lib/load.js';
import { cpuBetween, processTree } from './lib/process-tree.js';
import { buildMain, cpuSecondsOf, startServe, type ServeProcess } from './lib/serve-process.js';

/**
 * `npm run bench -- scale [--duration 8] [--uploads 8] [--rounds 2] [--connections 10]`: what a second
 * `pinfold serve` instance adds on the scale-out backends, and what those backends cost against the
 * embedded ones, all on this machine:
 * - embedded: one instance on SQLite and its data folder's pack files (the default);
 * - scale-out, one instance: `--db` on a real PostgreSQL, `--blocks` on a real Ceph RGW;
 * - scale-out, two instances: two such processes on the same database and bucket, the load split evenly.
 * Two loads, each the same for every side: 4 KiB gateway reads by path (autocannon, `--connections` in
 * all, split between the instances), and `--uploads` distinct 16 MiB files uploaded four at a time (two
 * uploads at a time per instance with two), in MB/s. Rounds alternate the sides; the best of each counts.
 * RESULT scale ratio = two-instance / one-instance read throughput on the scale-out backends, with the
 * upload ratio, and the embedded/scale-out ratios beside it. Each round's uploads also say the CPU time
 * of the service and of the engines (PostgreSQL and Ceph, on the same cores; near 0 on the embedded side).
 * On two cores shared by the load generator, both instances, PostgreSQL and Ceph, expect little from a
 * second instance: the figures say how little.
 */

const UPLOAD_BYTES = 16 * MiB;
const UPLOADS_AT_ONCE = 4;

interface Side {
  name: string;
  servers: ServeProcess[];
}

/** One file of 16 MiB per upload, each distinct in every 64 KiB (so no chunk deduplicates), copied from one random file. */
async function distinctFiles(dir: string, base: string, count: number, tag: string): Promise<string[]> {
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const path = join(dir, `${tag}-${i}.bin`);
    await copyFile(base, path);
    const handle = await open(path, 'r+');
    try {
      const stamp = randomBytes(16);
      for (let at = 0; at < UPLOAD_BYTES; at += 64 * 1024) await handle.write(stamp, 0, stamp.byteLength, at);
    } finally {
      await handle.close();
    }
    files.push(path);
  }
  return files;
}

/** Uploads every file, `UPLOADS_AT_ONCE` at a time in all, spread over the side's instances; MB/s. */
async function uploadThroughput(side: Side, files: readonly string[]): Promise<number> {
  const queue = [...files];
  const started = performance.now();
  const lanes = Array.from({ length: UPLOADS_AT_ONCE }, async (_, lane) => {
    const server = side.servers[lane % side.servers.length] as ServeProcess;
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const answer = await postFile(await uploadAddress(server, '/ipfs/', { size: UPLOAD_BYTES }), file, UPLOAD_BYTES);
      if (answer.status !== 201) throw new Error(`${side.name}: upload ${answer.status} ${answer.body}`);
    }
  });
  await Promise.all(lanes);
  return (files.length * UPLOAD_BYTES) / MiB / ((performance.now() - started) / 1000);
}

/** Requests per second of 4 KiB reads by path, `connections` split over the side's instances at once. */
async function readThroughput(side: Side, root: string, connections: number, duration: number): Promise<number> {
  const ts = Math.floor(Date.now() / 1000);
  const requests = Array.from({ length: 100 }, (_, i) => ({ method: 'GET', path: `/ipfs/${root}/f${i}.bin?ts=${ts}` }));
  const share = Math.max(1, Math.floor(connections / side.servers.length));
  const results = await Promise.all(
    side.servers.map(async (server) =>
      measure(side.name, { url: server.url, headers: authHeaders(server), requests, connections: share, duration, workers: 1 }),
    ),
  );
  return results.reduce((sum, result) => sum + result.requests.average, 0);
}

function cpuSeconds(side: Side): number {
  return side.servers.reduce((sum, server) => sum + server.cpuSeconds(), 0);
}

/** The engines this benchmark started (PostgreSQL's and Ceph's processes): the scale-out side's CPU too. */
const ENGINE_PROCESS = /^(postgres|radosgw|ceph-)/;

/** CPU seconds used so far by each engine process, by pid (compare two readings with cpuBetween). */
function engineCpuSeconds(): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const pid of processTree(process.pid)) {
    try {
      if (ENGINE_PROCESS.test(readFileSync(`/proc/${pid}/comm`, 'utf8'))) cpu.set(pid, cpuSecondsOf(pid));
    } catch {
      // exited since the listing
    }
  }
  return cpu;
}

export async function run(args: readonly string[]): Promise<void> {
  const duration = numberFlag(args, 'duration', 8);
  const rounds = numberFlag(args, 'rounds', 2);
  const uploads = numberFlag(args, 'uploads', 8);
  const connections = numberFlag(args, 'connections', 10);
  const work = await mkdtemp(join(tmpdir(), 'pinfold-bench-scale-'));
  let postgres: PostgresServer | undefined;
  let rgw: CephRgw | undefined;
  const servers: ServeProcess[] = [];
  try {
    buildMain();
    [postgres, rgw] = await Promise.all([startPostgres(), startCephRgw()]);
    const database = await postgres.createDatabase('scale');
    const env = { AWS_ACCESS_KEY_ID: rgw.accessKeyId, AWS_SECRET_ACCESS_KEY: rgw.secretAccessKey };
    const blocks = `s3://pinfold-bench/blocks/?endpoint=${encodeURIComponent(rgw.endpoint)}&region=${rgw.region}`;
    const scaleArgs = ['--db', database, '--blocks', blocks];
    const embedded = await startServe({ compiled: true });
    servers.push(embedded);
    const first = await startServe({ compiled: true, args: scaleArgs, env });
    servers.push(first);
    // The second instance shares the first one's master key (docs/scale-out.md).
    const masterKeyFile = join(work, 'master.key');
    await copyFile(join(first.dataDir, 'master.key'), masterKeyFile);
    await chmod(masterKeyFile, 0o600);
    const second = await startServe({ compiled: true, args: [...scaleArgs, '--master-key-file', masterKeyFile], env, key: first.key });
    servers.push(second);
    const sides: Side[] = [
      { name: 'embedded', servers: [embedded] },
      { name: 'scale-out x1', servers: [first] },
      { name: 'scale-out x2', servers: [first, second] },
    ];

    const { root, car } = await smallFilesCar();
    const carPath = join(work, 'small.car');
    await writeFile(carPath, car);
    for (const server of [embedded, first]) {
      const imported = await postFile(await uploadAddress(server, '/api/v0/dag/import', { size: car.byteLength }), carPath, car.byteLength);
      if (imported.status !== 200) throw new Error(`dag/import: ${imported.status} ${imported.body}`);
    }
    const base = join(work, 'base.bin');
    await writeRandomFile(base, UPLOAD_BYTES);
    process.stdout.write(
      `scale benchmark: 4 KiB reads by path (${connections} connections, ${duration} s), ${uploads} uploads of 16 MiB (${UPLOADS_AT_ONCE} at a time); ${rounds} rounds, sides alternating\n`,
    );
    for (const side of sides) await readThroughput(side, root.toString(), connections, 1);

    const reads = new Map<string, number[]>(sides.map((side) => [side.name, []]));
    const writes = new Map<string, number[]>(sides.map((side) => [side.name, []]));
    for (let round = 1; round <= rounds; round++) {
      for (const side of round % 2 === 1 ? sides : [...sides].reverse()) {
        let cpu = cpuSeconds(side);
        const rps = await readThroughput(side, root.toString(), connections, duration);
        const readCpuUs = ((cpuSeconds(side) - cpu) * 1e6) / (rps * duration);
        reads.get(side.name)?.push(rps);
        const files = await distinctFiles(work, base, uploads, `${side.name.replace(/\W/g, '')}-${round}`);
        cpu = cpuSeconds(side);
        const engines = engineCpuSeconds();
        const mbps = await uploadThroughput(side, files);
        const uploadCpu = cpuSeconds(side) - cpu;
        const engineCpu = cpuBetween(engines, engineCpuSeconds());
        writes.get(side.name)?.push(mbps);
        await Promise.all(files.map(async (file) => rm(file)));
        process.stdout.write(
          `round ${round} ${side.name.padEnd(13)} reads ${rps.toFixed(0).padStart(6)} req/s (${readCpuUs.toFixed(1)} service CPU-us/req)   uploads ${mbps.toFixed(1).padStart(6)} MB/s (${uploadCpu.toFixed(2)} service CPU-s, ${engineCpu.toFixed(2)} engine CPU-s)\n`,
        );
      }
    }
    const bestOf = (map: Map<string, number[]>, name: string): number => Math.max(...(map.get(name) ?? [0]));
    const readOne = bestOf(reads, 'scale-out x1');
    const readTwo = bestOf(reads, 'scale-out x2');
    const writeOne = bestOf(writes, 'scale-out x1');
    const writeTwo = bestOf(writes, 'scale-out x2');
    const readEmbedded = bestOf(reads, 'embedded');
    const writeEmbedded = bestOf(writes, 'embedded');
    process.stdout.write(
      `RESULT scale ratio=${(readTwo / readOne).toFixed(3)} upload_ratio=${(writeTwo / writeOne).toFixed(3)} embedded_vs_scaleout_reads=${(readEmbedded / readOne).toFixed(2)} embedded_vs_scaleout_uploads=${(writeEmbedded / writeOne).toFixed(2)} reads_rps_embedded=${readEmbedded.toFixed(0)} reads_rps_x1=${readOne.toFixed(0)} reads_rps_x2=${readTwo.toFixed(0)} upload_mbps_embedded=${writeEmbedded.toFixed(1)} upload_mbps_x1=${writeOne.toFixed(1)} upload_mbps_x2=${writeTwo.toFixed(1)}\n`,
    );
  } finally {
    await Promise.all(servers.map(async (server) => server.stop()));
    await rgw?.stop();
    await postgres?.stop();
    await rm(work, { recursive: true, force: true });
  }
}
