import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../main/app/create-app.js';
import { testConfig } from '../helpers/test-network.js';
import { numberFlag } from './lib/flags.js';
import { measure, type CannonResult } from './lib/load.js';
import { ownerKeyOf } from '../helpers/owner-key.js';

/**
 * IPNS in one run on the same small content: publishes per second (sequential, N publishes to one name), then
 * `GET /ipns/{name}` against `GET /ipfs/{cid}` with autocannon (10 connections, load from a worker thread).
 * Resolution must be served from the validated-record cache, not re-verified per request, yet a publish must be
 * visible at once (checked here too). Target: ratio = ipns_rps / ipfs_rps >= 0.8.
 *
 * The two sides run in alternating slices (`--rounds`, default 10) rather than one block each: on a shared
 * machine, background load then weighs on both alike instead of skewing the ratio. Flags: `--duration S`
 * (per side, default 10), `--connections N` (10), `--publishes N` (300), `--rounds N`.
 */

/** Requests and seconds summed over the slices of one side; p99 is the worst slice's. */
class Totals {
  private requests = 0;
  private seconds = 0;
  private p99 = 0;
  add(result: CannonResult, seconds: number): void {
    this.requests += result.requests.total;
    this.seconds += seconds;
    this.p99 = Math.max(this.p99, result.latency.p99);
  }
  rps(): number {
    return this.requests / this.seconds;
  }
  line(label: string): string {
    return `${label.padEnd(10)} ${this.rps().toFixed(0).padStart(8)} req/s   worst-slice p99 ${this.p99} ms   (${this.requests} requests in ${this.seconds} s)`;
  }
}

interface Client {
  url: string;
  headers: Record<string, string>;
}

async function api<T>(client: Client, method: string, path: string, query: Record<string, string> = {}): Promise<T> {
  const qs = new URLSearchParams({ ts: String(Math.floor(Date.now() / 1000)), ...query });
  const response = await fetch(`${client.url}${path}?${qs.toString()}`, { method, headers: client.headers });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** One small file through both steps of `POST /ipfs/?size=`; returns its CID. */
async function upload(client: Client, bytes: Uint8Array): Promise<string> {
  const step1 = await api<{ data: { url: string } }>(client, 'POST', '/ipfs/', { size: String(bytes.byteLength) });
  const response = await fetch(step1.data.url, { method: 'POST', body: bytes, headers: { 'content-type': 'application/octet-stream' } });
  const cid = response.headers.get('ipfs-hash');
  if (response.status !== 201 || cid === null) throw new Error(`upload failed: ${response.status}`);
  return cid;
}

async function get(client: Client, path: string): Promise<string> {
  const response = await fetch(`${client.url}${path}?ts=${Math.floor(Date.now() / 1000)}`, { headers: client.headers });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${text}`);
  return text;
}

export async function run(args: readonly string[]): Promise<void> {
  const duration = numberFlag(args, 'duration', 10);
  const connections = numberFlag(args, 'connections', 10);
  const publishes = numberFlag(args, 'publishes', 300);
  const dataDir = await mkdtemp(join(tmpdir(), 'pinfold-bench-ipns-'));
  const app = await createApp({ config: testConfig({ dataDir, port: 0 }), env: {} });
  try {
    const url = await app.listen();
    const headers = { 'X-Access-Key': ownerKeyOf(app).access_key, 'X-Access-Secret': ownerKeyOf(app).access_secret };
    const client: Client = { url, headers };
    const texts = ['ipns benchmark content A\n', 'ipns benchmark content B\n'];
    const cids = [await upload(client, new TextEncoder().encode(texts[0])), await upload(client, new TextEncoder().encode(texts[1]))];
    const cid = cids[0] as string;
    const created = await api<{ data: { name: string } }>(client, 'POST', '/api/v0/name/create', { arg: cid });
    const name = created.data.name;
    process.stdout.write(`ipns benchmark: name ${name}, content ${cid} (${texts[0]?.length} bytes)\n`);

    // Publishes: sequential, alternating two CIDs, each checked visible at once on the gateway before timing.
    for (let i = 0; i < 2; i++) {
      const target = cids[(i + 1) % 2] as string;
      await api(client, 'POST', '/api/v0/name/publish', { key: name, arg: target });
      const served = await get(client, `/ipns/${name}`);
      if (served !== texts[(i + 1) % 2]) throw new Error('a publish was not visible at once on /ipns');
    }
    const started = process.hrtime.bigint();
    for (let i = 0; i < publishes; i++) {
      await api(client, 'POST', '/api/v0/name/publish', { key: name, arg: cids[i % 2] as string });
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const publishPerSecond = publishes / seconds;
    process.stdout.write(
      `publish    ${publishPerSecond.toFixed(0).padStart(8)} /s      (${publishes} sequential publishes to one name in ${seconds.toFixed(2)} s)\n`,
    );
    // End on the content the /ipfs run serves, and prove it is what /ipns serves now.
    await api(client, 'POST', '/api/v0/name/publish', { key: name, arg: cid });
    if ((await get(client, `/ipns/${name}`)) !== texts[0]) throw new Error('the last publish was not visible at once on /ipns');

    // ts is taken once: the run is far shorter than the 300 s window.
    const ts = Math.floor(Date.now() / 1000);
    const ipfsUrl = `${url}/ipfs/${cid}?ts=${ts}`;
    const ipnsUrl = `${url}/ipns/${name}?ts=${ts}`;
    const common = { connections, workers: 1, headers };
    const rounds = Math.max(1, Math.min(numberFlag(args, 'rounds', 10), Math.floor(duration)));
    const slice = duration / rounds;
    process.stdout.write(
      `resolution: ${connections} connections, ${duration} s each, in ${rounds} alternating slices of ${slice} s (so background load hits both alike), load from a worker thread\n`,
    );
    await measure('warm-up', { ...common, url: ipfsUrl, duration: 1 });
    await measure('warm-up', { ...common, url: ipnsUrl, duration: 1 });
    const ipfs = new Totals();
    const ipns = new Totals();
    for (let round = 0; round < rounds; round++) {
      // Alternate which goes first, so neither always runs right after the other.
      const order: Array<[string, string, Totals]> = [
        ['ipfs', ipfsUrl, ipfs],
        ['ipns', ipnsUrl, ipns],
      ];
      if (round % 2 === 1) order.reverse();
      for (const [label, target, totals] of order) totals.add(await measure(label, { ...common, url: target, duration: slice }), slice);
    }
    process.stdout.write(`${ipfs.line('/ipfs')}\n${ipns.line('/ipns')}\n`);

    const ratio = ipns.rps() / ipfs.rps();
    process.stdout.write(`target: ratio >= 0.8 (${ratio >= 0.8 ? 'met' : 'NOT met'})\n`);
    process.stdout.write(
      `RESULT ipns ratio=${ratio.toFixed(3)} publish_per_s=${publishPerSecond.toFixed(0)} ipns_rps=${ipns.rps().toFixed(0)} ipfs_rps=${ipfs.rps().toFixed(0)}\n`,
    );
  } finally {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export default run;
