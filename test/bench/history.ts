import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { importer } from 'ipfs-unixfs-importer';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { randomBytes, randomUUID } from 'node:crypto';
import { diffTrees } from '../../main/content/directory/diff-trees.js';
import { uniqueBytes } from '../../main/content/walk/unique-bytes.js';
import { openDatabase } from '../../main/store/db/database.js';
import { sqliteStore } from '../../main/store/db/sqlite-store.js';
import { listVersions } from '../../main/sync/history.js';
import { setPath } from '../../main/content/directory/index.js';
import { openBlockstore, type PinfoldBlockstore } from '../../main/store/blockstore/blockstore.js';
import { CONTRACT_OPTIONS } from './import.js';
import { numberFlag, textFlag } from './lib/flags.js';
import { SQLITE_QUERIES } from '../../main/store/db/queries.js';

const { insertSyncFolder } = SQLITE_QUERIES.sync;

const { insertAccount } = SQLITE_QUERIES.accounts;

/**
 * `npm run bench -- history [--sizes 1000,100000] [--versions 21] [--changes 10] [--listed 10000]
 * [--folder-mib 1024] [--batches 100]`: the cost of a diff between
 * two versions of a synced folder must grow with the change, not with the folder (issue "every version of a
 * synced folder"). For each size, a folder laid out as a sync folder of that many files is (100 files per
 * directory, `d<k>/f<i>.txt`) is imported into a real blockstore (pack files on disk), then `--versions`
 * versions follow one another, each changing `--changes` files spread over the folder (folder operations,
 * as sync makes them). The store is reopened (a cold read cache), and each pair of consecutive versions is
 * diffed. RESULT history ratio = p50 diff time at the largest size / p50 at the smallest (target < 3).
 *
 * Beside it, two figures of the same issue: the time to list `--listed` versions of a folder through the
 * repository (every page of 1000, and the first page of 50), and the bytes the history holds after
 * `--batches` batches of `--changes` small changes to a folder of `--folder-mib` MiB (1 MiB files plus
 * 1000 small ones): each version's unique bytes (content/walk/unique-bytes.ts) against the next, summed,
 * as `history_bytes` reports them. It should be about the changed bytes plus directory nodes.
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

/** Lists `count` versions of one folder through the repository: every page of 1000, and the first page of 50. */
async function measureListing(count: number): Promise<{ allMs: number; firstPageMs: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'pinfold-bench-versions-'));
  const db = openDatabase(join(dir, 'pinfold.db'));
  try {
    const accountId = insertAccount(db, {
      uuid: randomUUID(),
      name: 'owner',
      email: '',
      provider: 'local',
      isOwner: true,
      isPartner: true,
      partnerId: null,
      planId: 0,
      balanceCents: 0,
      createdAt: 0,
      periodStart: 0,
    });
    const folderId = randomUUID();
    insertSyncFolder(db, { id: folderId, accountId, path: dir, ipnsName: '', caseInsensitive: false, ignorePatterns: [], createdAt: 0 });
    const insert = db.prepare('INSERT INTO sync_batches (folder_id, root, finished_at, added, modified, removed, bytes) VALUES (?, ?, ?, 1, 2, 3, 4)');
    db.transaction(() => {
      for (let i = 0; i < count; i++) insert.run(folderId, `bafyversion${i}`, 1_700_000_000 + i);
    })();
    const store = sqliteStore(db);
    const started = performance.now();
    let listed = 0;
    for (let start = 0; ; start += 1000) {
      const page = await listVersions(store, folderId, { limit: 1000, start });
      listed += page.versions.length;
      if (page.versions.length < 1000) break;
    }
    const allMs = performance.now() - started;
    if (listed !== count) throw new Error(`listed ${listed} versions, not ${count}`);
    const firsts: number[] = [];
    for (let i = 0; i < 21; i++) {
      const t = performance.now();
      await listVersions(store, folderId, { limit: 50, start: 0 });
      firsts.push(performance.now() - t);
    }
    return { allMs, firstPageMs: median(firsts) };
  } finally {
    db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

interface HistoryBytesResult {
  folderBytes: number;
  historyBytes: number;
  changedBytes: number;
  p50Ms: number;
}

/**
 * A folder of `mib` 1 MiB random files and 1000 small ones (`s<k>/f<i>.txt`), then `batches` versions each
 * rewriting `changes` small files; the history's bytes are each version's unique bytes against the next.
 */
async function measureHistoryBytes(mib: number, batches: number, changes: number): Promise<HistoryBytesResult> {
  const dir = await mkdtemp(join(tmpdir(), 'pinfold-bench-history-bytes-'));
  const small = (i: number): string[] => [`s${Math.floor(i / FILES_PER_DIRECTORY)}`, `f${i}.txt`];
  const smallFiles = 1000;
  try {
    const store = await openBlockstore(dir);
    function* source() {
      for (let i = 0; i < mib; i++) yield { path: `big/b${i}.bin`, content: [randomBytes(1024 * 1024)] };
      for (let i = 0; i < smallFiles; i++) yield { path: small(i).join('/'), content: [new TextEncoder().encode(`small file ${i}, version 0\n`)] };
    }
    let current: CID | undefined;
    for await (const entry of importer(source(), store, { ...CONTRACT_OPTIONS, wrapWithDirectory: true })) if (entry.path === '') current = entry.cid;
    if (current === undefined) throw new Error('the importer yielded no root');
    const versions = [current];
    let changedBytes = 0;
    for (let batch = 1; batch <= batches; batch++) {
      for (let change = 0; change < changes; change++) {
        const index = (batch * changes + change) % smallFiles;
        const text = `small file ${index}, version ${batch}\n`;
        changedBytes += text.length;
        current = (await setPath(store, current, small(index), await putRaw(store, text))).cid;
      }
      versions.push(current);
    }
    const times: number[] = [];
    let historyBytes = 0;
    for (let i = 0; i + 1 < versions.length; i++) {
      const t = performance.now();
      historyBytes += await uniqueBytes(store, versions[i] as CID, versions[i + 1] as CID);
      times.push(performance.now() - t);
    }
    await store.close();
    return { folderBytes: mib * 1024 * 1024, historyBytes, changedBytes, p50Ms: median(times) };
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
  const listedCount = numberFlag(args, 'listed', 10_000);
  const listing = await measureListing(listedCount);
  process.stdout.write(
    `${listedCount} versions: listed in ${listing.allMs.toFixed(1)} ms (pages of 1000); the first page of 50 in ${listing.firstPageMs.toFixed(2)} ms (p50)\n`,
  );
  const folderMib = numberFlag(args, 'folder-mib', 1024);
  const batches = numberFlag(args, 'batches', 100);
  const held = await measureHistoryBytes(folderMib, batches, changes);
  process.stdout.write(
    `${folderMib} MiB folder, ${batches} batches of ${changes} small changes: history holds ${held.historyBytes} bytes ` +
      `(${held.changedBytes} bytes of file content rewritten; ${(held.historyBytes / held.folderBytes).toExponential(2)} of the folder); ` +
      `unique bytes of a version p50 ${held.p50Ms.toFixed(2)} ms\n`,
  );
  const smallest = results[0] as SizeResult;
  const largest = results.at(-1) as SizeResult;
  const ratio = largest.diffP50Ms / smallest.diffP50Ms;
  process.stdout.write(
    `RESULT history ratio=${ratio.toFixed(3)} diff_p50_ms_${largest.files}=${largest.diffP50Ms.toFixed(2)} diff_p50_ms_${smallest.files}=${smallest.diffP50Ms.toFixed(2)} changes=${changes} ` +
      `list_${listedCount}_ms=${listing.allMs.toFixed(1)} first_page_ms=${listing.firstPageMs.toFixed(2)} ` +
      `history_bytes_${folderMib}mib_${batches}x${changes}=${held.historyBytes} rewritten_bytes=${held.changedBytes}\n`,
  );
}
