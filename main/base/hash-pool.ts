import { hash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * Hashes large blocks on worker threads so hashing (the main cost of an import: ~1.2 GB/s a core)
 * runs beside the event loop, which meanwhile parses the next bytes and issues writes. Only bytes in a
 * SharedArrayBuffer go to a worker (no copy, nothing detached); anything else is hashed inline.
 * Workers are unref'd while idle, so an idle pool never keeps a process alive.
 *
 * Import buffers come from a shared arena of fixed slots, reused once the store has written them:
 * fresh memory for every chunk costs page faults and zeroing comparable to a quarter of the hashing.
 * When every slot is busy (many slow uploads at once) `allocate` falls back to fresh memory, so nothing
 * ever waits for a slot.
 */

// Plain CommonJS evaluated in the worker: no module loader or TypeScript transform reaches it.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { hash } = require('node:crypto');
parentPort.on('message', (job) => {
  try {
    const buffer = job.buffer === undefined ? workerData.arena : job.buffer;
    const digest = hash(job.algorithm, new Uint8Array(buffer, job.offset, job.length), 'buffer');
    parentPort.postMessage({ id: job.id, digest });
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: String(error && error.message || error) });
  }
});
`;

/** Below this size a round trip to a worker costs more than hashing inline. */
export const OFFLOAD_MIN_BYTES = 64 * 1024;
/**
 * Arena slots: one 1 MiB chunk each (the contract chunk size), plus room for the CID in front of it so that
 * a CAR section of such a block (read whole, then verified) fits too: a section that does not fit gets a
 * fresh SharedArrayBuffer, which the hash worker also references and which is freed only when both
 * isolates collect it, so a CAR of 1 MiB blocks grew the process by its whole size. ~32 MiB reserved.
 */
const SLOT_BYTES = 1024 * 1024 + 4096;
const SLOT_COUNT = 32;

interface Job {
  resolve: (digest: Buffer) => void;
  reject: (error: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  jobs: Map<number, Job>;
}

interface Reply {
  id: number;
  digest?: Uint8Array;
  error?: string;
}

class HashPool {
  private readonly workers: PoolWorker[] = [];
  private nextId = 0;
  private readonly arena = new SharedArrayBuffer(SLOT_BYTES * SLOT_COUNT);
  private readonly free: number[] = Array.from({ length: SLOT_COUNT }, (_, slot) => SLOT_COUNT - 1 - slot);
  private readonly busy = new Uint8Array(SLOT_COUNT);

  constructor(private readonly size: number) {}

  /**
   * Shared memory for `length` bytes that hash workers read without a copy: an arena slot when one is
   * free and the length fits, else a fresh buffer. Give it back with `release` once nothing reads it.
   */
  allocate(length: number): Uint8Array {
    const slot = length <= SLOT_BYTES ? this.free.pop() : undefined;
    if (slot === undefined) return sharedBytes(length);
    this.busy[slot] = 1;
    return new Uint8Array(this.arena, slot * SLOT_BYTES, length);
  }

  /** Returns the arena slot holding `bytes` (any view into it); a no-op for other memory. */
  release(bytes: Uint8Array): void {
    if (bytes.buffer !== this.arena) return;
    const slot = Math.floor(bytes.byteOffset / SLOT_BYTES);
    if (this.busy[slot] !== 1) return;
    this.busy[slot] = 0;
    this.free.push(slot);
  }

  digest(algorithm: string, bytes: Uint8Array): Promise<Buffer> {
    if (bytes.byteLength < OFFLOAD_MIN_BYTES || !(bytes.buffer instanceof SharedArrayBuffer)) {
      return Promise.resolve(hash(algorithm, bytes, 'buffer'));
    }
    const target = this.pick();
    const id = this.nextId++;
    // Arena bytes travel as an offset: the workers hold the arena since they started.
    const buffer = bytes.buffer === this.arena ? undefined : bytes.buffer;
    return new Promise<Buffer>((resolve, reject) => {
      target.jobs.set(id, { resolve, reject });
      if (target.jobs.size === 1) target.worker.ref();
      target.worker.postMessage({ id, algorithm, buffer, offset: bytes.byteOffset, length: bytes.byteLength });
    });
  }

  async close(): Promise<void> {
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((entry) => entry.worker.terminate()));
  }

  private pick(): PoolWorker {
    if (this.workers.length < this.size) return this.spawn();
    let best = this.workers[0] as PoolWorker;
    for (const entry of this.workers) if (entry.jobs.size < best.jobs.size) best = entry;
    return best;
  }

  private spawn(): PoolWorker {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { arena: this.arena } });
    const entry: PoolWorker = { worker, jobs: new Map() };
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const job = entry.jobs.get(reply.id);
      if (job === undefined) return;
      entry.jobs.delete(reply.id);
      if (entry.jobs.size === 0) worker.unref();
      if (reply.error !== undefined || reply.digest === undefined) job.reject(new Error(reply.error ?? 'hash worker failed'));
      else job.resolve(Buffer.from(reply.digest.buffer, reply.digest.byteOffset, reply.digest.byteLength));
    });
    const fail = (error: Error): void => {
      const index = this.workers.indexOf(entry);
      if (index >= 0) this.workers.splice(index, 1);
      for (const job of entry.jobs.values()) job.reject(error);
      entry.jobs.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`hash worker exited with code ${code}`)));
    this.workers.push(entry);
    return entry;
  }
}

let shared: HashPool | undefined;

/** The process-wide pool: a worker a core beyond the one the event loop needs, at least one, at most four. */
export function hashPool(): HashPool {
  shared ??= new HashPool(Math.max(1, Math.min(4, availableParallelism() - 1)));
  return shared;
}

export type { HashPool };

/** A zeroed buffer that hash workers can read without a copy. */
export function sharedBytes(length: number): Uint8Array {
  return new Uint8Array(new SharedArrayBuffer(length));
}
