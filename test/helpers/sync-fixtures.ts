import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Db } from '../../main/store/db/database.js';
import { sqliteStore } from '../../main/store/db/sqlite-store.js';
import { accountsMigration } from '../../main/store/db/migrations/001-accounts.js';
import { syncMigration } from '../../main/store/db/migrations/006-sync.js';
import { syncBatchesMigration } from '../../main/store/db/migrations/015-sync-batches.js';
import { syncVersionsMigration } from '../../main/store/db/migrations/016-sync-versions.js';
import { historyBytesMigration } from '../../main/store/db/migrations/017-history-bytes.js';
import { namesMigration } from '../../main/store/db/migrations/004-names.js';
import { namesValidityMigration } from '../../main/store/db/migrations/009-names-validity.js';
import { namesPublicMigration } from '../../main/store/db/migrations/019-names-public.js';
import { syncFollowMigration } from '../../main/store/db/migrations/020-sync-follow.js';
import { namesSeenMigration } from '../../main/store/db/migrations/021-names-seen.js';
import { EMPTY_DIR_CID, type DirOperation, type ReconcilerComponents } from '../../main/sync/reconciler.js';
import { SQLITE_QUERIES } from '../../main/store/db/queries.js';

const { insertSyncFolder } = SQLITE_QUERIES.sync;

/**
 * Fakes of the domains the reconciler is wired to later (content import, folder operations, pins,
 * names). Content addressing is real enough to compare trees: the same files give the same
 * "CIDs", whether built incrementally by the reconciler or from scratch by `expectedRoot`.
 */
export interface FakeDomains extends ReconcilerComponents {
  imports: number;
  operations: number;
  pinned: Set<string>;
  published: Map<string, string>;
  calls: string[];
  /** Throw (simulating kill -9) when the named step is next reached. */
  crashAt: 'movePin' | 'afterMovePin' | 'publish' | 'afterPublish' | 'importFile' | undefined;
  /** The new root's blocks are gone (GC ran while stopped): movePin throws NotFoundError. */
  blocksMissing: boolean;
  /** The fake blockstore of directories (survives a "restart" when passed to the next fake). */
  dirs: Map<string, Map<string, string>>;
}

export class Crash extends Error {
  override readonly name = 'Crash';
}

const hashDir = (entries: Map<string, string>): string =>
  entries.size === 0
    ? EMPTY_DIR_CID
    : `dir:${createHash('sha256')
        .update(JSON.stringify([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))))
        .digest('hex')
        .slice(0, 24)}`;
const hashFile = (bytes: Buffer): string => `file:${createHash('sha256').update(bytes).digest('hex').slice(0, 24)}`;

/** `survivor`: the fake of the process that was killed; blocks, pins and names outlive it. */
export function createFakeDomains(db: Db, survivor?: FakeDomains): FakeDomains {
  const dirs = survivor?.dirs ?? new Map<string, Map<string, string>>([[EMPTY_DIR_CID, new Map()]]);
  const fake: FakeDomains = {
    store: sqliteStore(db),
    dirs,
    imports: 0,
    operations: 0,
    pinned: survivor?.pinned ?? new Set(),
    published: survivor?.published ?? new Map(),
    calls: [],
    crashAt: undefined,
    blocksMissing: false,
    async importFile(source) {
      if (fake.crashAt === 'importFile') throw new Crash('killed during import');
      const chunks: Buffer[] = [];
      for await (const chunk of source) chunks.push(Buffer.from(chunk));
      fake.imports++;
      const bytes = Buffer.concat(chunks);
      return { cid: hashFile(bytes), size: bytes.length };
    },
    async applyOperation(dirCid: string, op: DirOperation) {
      const base = dirs.get(dirCid);
      if (!base) throw new Error(`unknown directory ${dirCid}`);
      const next = new Map(base);
      for (const name of op.remove) next.delete(name);
      for (const { name, cid } of op.add) next.set(name, cid);
      const cid = hashDir(next);
      dirs.set(cid, next);
      fake.operations++;
      return cid;
    },
    async movePin(newRoot, oldRoot) {
      fake.calls.push(`movePin ${newRoot} ${oldRoot ?? '-'}`);
      if (fake.crashAt === 'movePin') throw new Crash('killed before pinning');
      if (fake.blocksMissing) {
        const { NotFoundError } = await import('../../main/base/errors.js');
        throw new NotFoundError(`blocks of ${newRoot} missing`);
      }
      fake.pinned.add(newRoot);
      if (oldRoot) fake.pinned.delete(oldRoot);
      if (fake.crashAt === 'afterMovePin') throw new Crash('killed after pinning');
    },
    async publish(name, root) {
      fake.calls.push(`publish ${name} ${root}`);
      if (fake.crashAt === 'publish') throw new Crash('killed before publishing');
      fake.published.set(name, root);
      if (fake.crashAt === 'afterPublish') throw new Crash('killed after publishing');
    },
  };
  return fake;
}

/** The root an independent, from-scratch import of `folder` gives with the fake hashing. */
export async function expectedRoot(folder: string, keep: (rel: string, isDir: boolean) => boolean = () => true, rel = ''): Promise<string> {
  const entries = new Map<string, string>();
  const dirents = await readdir(path.join(folder, rel), { withFileTypes: true });
  for (const dirent of dirents) {
    const childRel = rel === '' ? dirent.name : `${rel}/${dirent.name}`;
    if (dirent.isDirectory()) {
      if (keep(childRel, true)) entries.set(dirent.name, await expectedRoot(folder, keep, childRel));
    } else if (dirent.isFile() && keep(childRel, false)) {
      entries.set(dirent.name, hashFile(await readFile(path.join(folder, childRel))));
    }
  }
  return hashDir(entries);
}

export interface SyncTestEnv {
  base: string;
  folder: string;
  dbPath: string;
  db: Db;
  folderId: string;
  reopen(): Db;
  cleanup(): Promise<void>;
}

export async function createSyncTestEnv(options: { ipnsName?: string; caseInsensitive?: boolean } = {}): Promise<SyncTestEnv> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'pinfold-sync-'));
  const folder = path.join(base, 'folder');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(folder);
  const dbPath = path.join(base, 'pinfold.db');
  // The names' tables too: a folder's view reads whether its name is public, and a record of it seen elsewhere.
  const migrations = [
    accountsMigration,
    namesMigration,
    syncMigration,
    namesValidityMigration,
    syncBatchesMigration,
    syncVersionsMigration,
    historyBytesMigration,
    namesPublicMigration,
    syncFollowMigration,
    namesSeenMigration,
  ];
  const env: SyncTestEnv = {
    base,
    folder,
    dbPath,
    db: openDatabase(dbPath, { migrations }),
    folderId: 'f-1',
    reopen() {
      env.db.close();
      env.db = openDatabase(dbPath, { migrations });
      return env.db;
    },
    async cleanup() {
      if (env.db.open) env.db.close();
      await rm(base, { recursive: true, force: true });
    },
  };
  env.db
    .prepare(
      "INSERT INTO accounts (id, uuid, name, email, provider, is_owner, is_partner, plan_id, next_plan_id, created_at) VALUES (1, 'u-1', 'owner', '', 'local', 1, 1, 0, 0, 0)",
    )
    .run();
  insertSyncFolder(env.db, {
    id: env.folderId,
    accountId: 1,
    path: folder,
    ipnsName: options.ipnsName ?? 'k51-test-name',
    caseInsensitive: options.caseInsensitive ?? false,
    ignorePatterns: [],
    createdAt: 100,
  });
  return env;
}
