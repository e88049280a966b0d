import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { importer } from 'ipfs-unixfs-importer';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { diffTrees } from '../../main/content/directory/diff-trees.js';
import { setPath } from '../../main/content/directory/index.js';
import { openBlockstore, type PinfoldBlockstore } from '../../main/store/blockstore/blockstore.js';
import { CONTRACT_OPTIONS } from './import.js';
import { numberFlag, textFlag } from './lib/flags.js';

/**
 * `npm run bench -- history [--sizes 1000,100000] [--versions 21] [--changes 10]`: the cost of a diff between
 * two versions of a synced folder must grow with the change, not with the folder (issue "every version of a
 * synced folder"). For each size, a folder laid out as a sync folder of that many files is (100 files per
 * directory, `d<k>/f<i>.txt`) is imported into a real blockstore (pack files on disk), then `--versions`
 * versions follow one another, each changing `--changes` files spread over the folder (folder operations,
 * as sync makes them). The store is reopened (a cold read cache), and each pair of consecutive versions is
 * diffed. RESULT history ratio = p50 diff time at the largest size / p50 at the smallest (target < 3).
 */

const FILES_PER_DIRECTORY = 100;

function filePath(index: number): string[] {
  return [`d${Math.floor(index / FILES_PER_DIRECTORY)}`, `f${index}.txt`];
}

async function putRaw(store: PinfoldBlockstore, text: string): Promise<CID> {
  const bytes = new TextEncoder().encode(text);
  const cid = CID.createV1(raw.code, await sha256.digest(bytes));
  await store.put(cid, bytes);
  return cid;
}

async function importFolder(store: PinfoldBlockstore, files: number): Promise<CID> {
  function* source() {
    for (let i = 0; i < files; i++) yield { path: filePath(i).join('/'), content: [new TextEncoder().encode(`file ${i}\n`)] };
  }
  let root: CID | undefined;
  for await (const entry of importer(source(), store, { ...CONTRACT_OPTIONS, wrapWithDirectory: true })) if (entry.path === '') root = entry.cid;
  if (root === undefined) throw new Error('the importer yielded no root');
  return root;
}

/** `count` versions after `root`, each changing `changes` files spread over the folder. */
async function makeVersions(store: PinfoldBlockstore, root: CID, files: number, count: number, changes: number): Promise<CID[]> {
  const versions = [root];
  let current = root;
  for (let version = 1; version < count; version++) {
    for (let change = 0; change < changes; change++) {
      const index = Math.floor(((change + version / count) * files) / changes) % files;
      const cid = await putRaw(store, `file ${index}, version ${version}\n`);
      current = (await setPath(store, current, filePath(index), cid)).cid;
    }
    versions.push(current);
  }
  return versions;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

interface SizeResult {
  files: number;
  importMs: number;
  diffP50Ms: number;
  changedPerDiff: number;
}

async function measureSize(files: number, versionsCount: number, changes: number): Promise<SizeResult> {
  const dir = await mkdtemp(join(tmpdir(), 'pinfold-bench-history-'));
  try {
    let store = await openBlockstore(dir);
    const started = performance.now();
    const root = await importFolder(store, files);
    const importMs = performance.now() - started;
    const versions = await makeVersions(store, root, files, versionsCount, changes);
    await store.close();
    store = await openBlockstore(dir);
    const times: number[] = [];
    let changed = 0;
    for (let i = 1; i < versions.length; i++) {
      const t = performance.now();
      const diff = await diffTrees({ blockstore: store }, versions[i - 1] as CID, versions[i] as CID);
      times.push(performance.now() - t);
      changed = diff.added.length + diff.modified.length + diff.removed.length;
      if (diff.modified.length !== changes) throw new Error(`diff found ${diff.modified.length} modified files, not ${changes}`);
    }
    await store.close();
    return { files, importMs, diffP50Ms: median(times), changedPerDiff: changed };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function run(args: readonly string[]): Promise<void> {
  const sizes = (textFlag(args, 'sizes') ?? '1000,100000').split(',').map(Number);
  const versionsCount = numberFlag(args, 'versions', 21);
  const changes = numberFlag(args, 'changes', 10);
  const results: SizeResult[] = [];
  for (const files of sizes) {
    const result = await measureSize(files, versionsCount, changes);
    results.push(result);
    process.stdout.write(
      `${String(files).padStart(7)} files: imported in ${(result.importMs / 1000).toFixed(1)} s; diff of ${result.changedPerDiff} changed files p50 ${result.diffP50Ms.toFixed(2)} ms (${versionsCount - 1} diffs, cold store)\n`,
    );
  }
  const smallest = results[0] as SizeResult;
  const largest = results.at(-1) as SizeResult;
  const ratio = largest.diffP50Ms / smallest.diffP50Ms;
  process.stdout.write(
    `RESULT history ratio=${ratio.toFixed(3)} diff_p50_ms_${largest.files}=${largest.diffP50Ms.toFixed(2)} diff_p50_ms_${smallest.files}=${smallest.diffP50Ms.toFixed(2)} changes=${changes}\n`,
  );
}
