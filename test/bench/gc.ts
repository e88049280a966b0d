import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CarWriter } from '@ipld/car/writer';
import { FsBlockstore } from 'blockstore-fs';
import { importer } from 'ipfs-unixfs-importer';
import { fixedSize } from 'ipfs-unixfs-importer/chunker';
import { balanced } from 'ipfs-unixfs-importer/layout';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { authHeaders, postFile, selfPeakRssMiB, startServe, uploadAddress, type ServeProcess } from './import.js';
import { numberFlag } from './lib/flags.js';

/**
 * `npm run bench -- gc [--blocks 100000]`: time for one GC cycle (POST /api/v0/repo/gc on a `pinfold serve`
 * child with --gc-grace 0) to collect a pinned-then-unpinned DAG of --blocks blocks: a UnixFS file of 1 KiB
 * raw leaves (plus its ~0.1 % interior nodes), imported as a CAR with its root pinned, then pin/rm. Another
 * pinned DAG of 1,000 blocks stays, so the cycle also marks.
 * Baseline: blockstore-fs deleting the same blocks one by one (deleteMany) in this process: the cost of
 * removing that many blocks from a one-file-per-block store, with no marking at all.
 */

const LEAF = 1024;

interface Dag {
  root: CID;
  cids: CID[];
}

/** A file DAG of about `blocks` blocks (1 KiB random leaves) streamed as a CAR to `carPath`. */
async function writeDagCar(carPath: string, blocks: number, baseline: FsBlockstore | null): Promise<Dag> {
  const leaves = Math.max(1, Math.round(blocks / (1 + 1 / 174)));
  const placeholder = CID.createV1(0x70, await sha256.digest(new Uint8Array(1)));
  const { writer, out } = CarWriter.create([placeholder]);
  const written = pipeline(Readable.from(out), createWriteStream(carPath));
  const cids: CID[] = [];
  const store = {
    async put(cid: CID, bytes: Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<CID> {
      if (!(bytes instanceof Uint8Array)) throw new TypeError('expected bytes');
      cids.push(cid);
      await writer.put({ cid, bytes });
      if (baseline) await baseline.put(cid, bytes);
      return cid;
    },
  };
  async function* content(): AsyncGenerator<Uint8Array> {
    for (let i = 0; i < leaves; i += 64) yield new Uint8Array(randomBytes(LEAF * Math.min(64, leaves - i)));
  }
  let root: CID | undefined;
  const options = {
    cidVersion: 1 as const,
    rawLeaves: true,
    reduceSingleLeafToSelf: true,
    chunker: fixedSize({ chunkSize: LEAF }),
    layout: balanced({ maxChildrenPerNode: 174 }),
  };
  for await (const entry of importer([{ content: content() }], store, options)) root = entry.cid;
  await writer.close();
  await written;
  if (!root) throw new Error('no root');
  const fd = await open(carPath, 'r+');
  try {
    await CarWriter.updateRootsInFile(fd, [root]);
  } finally {
    await fd.close();
  }
  return { root, cids };
}

async function api<T>(server: ServeProcess, method: string, path: string, query: Record<string, string> = {}): Promise<T> {
  const params = new URLSearchParams({ ts: String(Math.floor(Date.now() / 1000)), ...query });
  const response = await fetch(`${server.url}${path}?${params.toString()}`, { method, headers: authHeaders(server) });
  const body = (await response.json()) as T & { msg?: string };
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${body.msg}`);
  return body;
}

async function importCar(server: ServeProcess, carPath: string): Promise<void> {
  const size = (await stat(carPath)).size;
  const answer = await postFile(await uploadAddress(server, '/api/v0/dag/import', { size }), carPath, size);
  if (answer.status !== 200) throw new Error(`dag/import: ${answer.status} ${answer.body}`);
}

export async function run(args: readonly string[]): Promise<void> {
  const blocks = Math.round(numberFlag(args, 'blocks', 100_000));
  const work = await mkdtemp(join(tmpdir(), 'pinfold-bench-gc-'));
  let server: ServeProcess | null = null;
  try {
    const baselineStore = new FsBlockstore(join(work, 'blockstore-fs'));
    await baselineStore.open();
    const doomed = await writeDagCar(join(work, 'doomed.car'), blocks, baselineStore);
    const kept = await writeDagCar(join(work, 'kept.car'), 1000, null);
    process.stdout.write(`gc benchmark: collect ${doomed.cids.length} unpinned blocks (1 KiB leaves) beside a pinned DAG of ${kept.cids.length} blocks\n`);

    server = await startServe({ args: ['--gc-grace', '0'] });
    await importCar(server, join(work, 'kept.car'));
    await importCar(server, join(work, 'doomed.car'));
    await api(server, 'POST', '/api/v0/pin/rm', { arg: doomed.root.toString() });
    const t0 = performance.now();
    const gc = await api<{ data: { pins_removed: number; blocks_deleted: number } }>(server, 'POST', '/api/v0/repo/gc');
    const pinfoldMs = performance.now() - t0;
    if (gc.data.pins_removed !== 1 || gc.data.blocks_deleted !== doomed.cids.length)
      throw new Error(`gc removed ${gc.data.pins_removed} pins and ${gc.data.blocks_deleted} blocks, expected 1 and ${doomed.cids.length}`);
    const serverRss = server.peakRssMiB();
    const pinfoldRate = doomed.cids.length / (pinfoldMs / 1000);
    process.stdout.write(
      `pinfold   ${(pinfoldMs / 1000).toFixed(2)} s  ${pinfoldRate.toFixed(0)} blocks/s (repo/gc: mark ${kept.cids.length}, sweep, delete ${gc.data.blocks_deleted})   server peak RSS ${serverRss.toFixed(0)} MiB\n`,
    );
    await server.stop();
    server = null;

    const t1 = performance.now();
    let deleted = 0;
    for await (const _ of baselineStore.deleteMany(doomed.cids)) deleted++;
    const baselineMs = performance.now() - t1;
    await baselineStore.close();
    const baselineRate = deleted / (baselineMs / 1000);
    process.stdout.write(`baseline  ${(baselineMs / 1000).toFixed(2)} s  ${baselineRate.toFixed(0)} blocks/s (blockstore-fs deleteMany of the same blocks)\n`);
    const benchRss = selfPeakRssMiB();
    process.stdout.write(`peak RSS: pinfold server ${serverRss.toFixed(0)} MiB; bench process ${benchRss.toFixed(0)} MiB\n`);
    process.stdout.write(
      `RESULT gc ratio=${(pinfoldRate / baselineRate).toFixed(3)} blocks=${doomed.cids.length} pinfold_blocks_per_s=${pinfoldRate.toFixed(0)} baseline_blocks_per_s=${baselineRate.toFixed(0)} pinfold_ms=${pinfoldMs.toFixed(0)} pinfold_rss_mib=${serverRss.toFixed(0)}\n`,
    );
  } finally {
    await server?.stop();
    await rm(work, { recursive: true, force: true });
  }
}
