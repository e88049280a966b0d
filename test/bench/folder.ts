import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MemoryBlockstore } from 'blockstore-core/memory';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { systemClock } from '../../main/base/clock.js';
import { EMPTY_DIRECTORY_CID, editDirectory } from '../../main/content/directory/index.js';
import { applyFolderOperation, createFoldersContext, importFolder, type FolderPins } from '../../main/folders/index.js';
import { openDatabase } from '../../main/store/db/database.js';

/**
 * Folder operations at O(changed) cost: builds a folder of N entries, imports it, then times operations of
 * one add and one remove each, chained root to root, through applyFolderOperation (SQLite index, shard
 * cache, MemoryBlockstore). Reports p50/p99 per operation and the ratio of p50 at the largest size to
 * p50 at the smallest (target < 3), and the import time. `--sizes 1000,1000000 --ops 1000`.
 */

function flag(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] : args[i + 1];
}

const everythingPinned: FolderPins = {
  isPinned: () => true,
  isUsedByOtherPin: () => false,
  applyPinChanges: () => {},
};

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

interface SizeReport {
  size: number;
  kind: string;
  buildMs: number;
  importMs: number;
  p50: number;
  p99: number;
}

async function measureSize(size: number, ops: number): Promise<SizeReport> {
  const blockstore = new MemoryBlockstore();
  const children: Array<{ cid: CID; length: number }> = [];
  for (let i = 0; i < 256; i++) {
    const bytes = new TextEncoder().encode(`child file ${i}\n`);
    const cid = CID.createV1(raw.code, await sha256.digest(bytes));
    await blockstore.put(cid, bytes);
    children.push({ cid, length: bytes.length });
  }
  const child = (i: number) => children[i % children.length] as { cid: CID; length: number };
  const entries = Array.from({ length: size }, (_, i) => [`file-${i}.bin`, child(i).cid, child(i).length] as const);

  let started = performance.now();
  const built = await editDirectory(blockstore, EMPTY_DIRECTORY_CID, { add: entries });
  const buildMs = performance.now() - started;
  entries.length = 0;

  const dir = await mkdtemp(join(tmpdir(), 'pinfold-bench-folder-'));
  const db = openDatabase(join(dir, 'pinfold.db'));
  try {
    const ctx = createFoldersContext({ db, blockstore, pins: everythingPinned, clock: systemClock });
    started = performance.now();
    await importFolder(ctx, 1, built.cid);
    const importMs = performance.now() - started;

    let root = built.cid;
    // Remove the oldest names first (spread over the directory), then the ones this run added: the
    // folder keeps its size and every removed name exists.
    const step = Math.max(1, Math.floor(size / (ops + 100)));
    const removable = Array.from({ length: Math.min(size, ops + 100) }, (_, i) => `file-${i * step}.bin`);
    const timings: number[] = [];
    for (let i = 0; i < ops + 100; i++) {
      const t0 = performance.now();
      const result = await applyFolderOperation(ctx, 1, {
        root,
        add: [[`new-${i}.bin`, child(i).cid]],
        remove: [removable.shift() as string],
        pinNew: false,
        unpinOld: false,
      });
      const elapsed = performance.now() - t0;
      if (i >= 100) timings.push(elapsed); // the first 100 warm the JIT and the shard cache
      root = result.cid;
      removable.push(`new-${i}.bin`);
    }
    timings.sort((a, b) => a - b);
    return { size, kind: built.stats.kind, buildMs, importMs, p50: percentile(timings, 50), p99: percentile(timings, 99) };
  } finally {
    db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function run(args: readonly string[]): Promise<void> {
  const sizes = (flag(args, 'sizes') ?? '1000,1000000').split(',').map(Number);
  const ops = Number(flag(args, 'ops') ?? '1000');
  if (sizes.some((n) => !Number.isSafeInteger(n) || n < 1000) || !Number.isSafeInteger(ops) || ops < 1) {
    throw new Error('--sizes takes integers >= 1000, --ops a positive integer');
  }
  const reports: SizeReport[] = [];
  for (const size of sizes) {
    const report = await measureSize(size, ops);
    reports.push(report);
    process.stdout.write(
      `${String(size).padStart(9)} entries (${report.kind}): build ${report.buildMs.toFixed(0)} ms, import ${report.importMs.toFixed(0)} ms, ` +
        `operation (1 add + 1 remove) p50 ${report.p50.toFixed(3)} ms p99 ${report.p99.toFixed(3)} ms over ${ops}\n`,
    );
  }
  const first = reports[0] as SizeReport;
  const last = reports[reports.length - 1] as SizeReport;
  const ratio = last.p50 / first.p50;
  process.stdout.write(
    `RESULT folder p50_${first.size}=${first.p50.toFixed(3)}ms p99_${first.size}=${first.p99.toFixed(3)}ms ` +
      `p50_${last.size}=${last.p50.toFixed(3)}ms p99_${last.size}=${last.p99.toFixed(3)}ms ratio=${ratio.toFixed(2)} ` +
      `import_${last.size}=${last.importMs.toFixed(0)}ms target<3 ${ratio < 3 ? 'PASS' : 'FAIL'}\n`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
