import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { get as httpGet } from 'node:http';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

/**
 * The streamed-file half of the gateway benchmark runs in a fresh process, as a user's script or curl
 * would: the bench process has a big, busy heap by then (the upload, the load generator), and its
 * collections cost the HTTP client about 2.6 CPU-s per GiB, against under 1 in a fresh process.
 * Both sides are read in the same child, alternating, so neither pays for the other.
 */
export interface StreamReadJob {
  url: string;
  headers: Record<string, string>;
  file: string;
  size: number;
  rounds: number;
}

export interface StreamReadTimes {
  fsMs: number[];
  httpMs: number[];
}

/** Runs the reads in a child process and returns their times. */
export function readInChild(job: StreamReadJob): Promise<StreamReadTimes> {
  return new Promise((resolve, reject) => {
    const script = fileURLToPath(import.meta.url);
    execFile(process.execPath, ['--import', 'tsx', script, JSON.stringify(job)], { maxBuffer: 1024 * 1024 }, (error, stdout) => {
      if (error) reject(new Error(`stream reader failed: ${error.message}`, { cause: error }));
      else resolve(JSON.parse(stdout) as StreamReadTimes);
    });
  });
}

/** Reads a whole response, counting bytes; returns ms. */
function timedGet(url: string, headers: Record<string, string>, expected: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    httpGet(url, { headers }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`GET ${url}: ${res.statusCode}`));
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.byteLength));
      res.on('end', () => (bytes === expected ? resolve(performance.now() - t0) : reject(new Error(`got ${bytes} bytes of ${expected}`))));
      res.on('error', reject);
    }).on('error', reject);
  });
}

async function timedFileRead(path: string, expected: number): Promise<number> {
  const t0 = performance.now();
  let bytes = 0;
  for await (const chunk of createReadStream(path)) bytes += (chunk as Buffer).byteLength;
  if (bytes !== expected) throw new Error(`read ${bytes} of ${expected}`);
  return performance.now() - t0;
}

async function main(job: StreamReadJob): Promise<void> {
  // One read first, so both sides start from the page cache.
  await timedFileRead(job.file, job.size);
  const times: StreamReadTimes = { fsMs: [], httpMs: [] };
  for (let round = 0; round < job.rounds; round++) {
    times.fsMs.push(await timedFileRead(job.file, job.size));
    times.httpMs.push(await timedGet(job.url, job.headers, job.size));
  }
  process.stdout.write(JSON.stringify(times));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(JSON.parse(process.argv[2] ?? '{}') as StreamReadJob);
