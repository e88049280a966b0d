import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '../../../main/store/db/database.js';
import { MIGRATIONS } from '../../../main/store/db/migrations/index.js';

describe('migration 16 (sync versions)', () => {
  let dir: string;
  let db: Db;
  afterEach(async () => {
    db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps each folder newest batch as its first version and turns older rows into notes; retention starts unset', async () => {
    dir = await mkdtemp(join(tmpdir(), 'pinfold-migration-'));
    db = openDatabase(join(dir, 'pinfold.db'), { migrations: MIGRATIONS.filter((migration) => migration.version < 16) });
    db.prepare(
      "INSERT INTO accounts (id, uuid, name, email, provider, is_owner, plan_id, next_plan_id, created_at) VALUES (1, 'u', 'owner', 'o@example.com', 'local', 1, 0, 0, 0)",
    ).run();
    for (const folder of ['f1', 'f2']) {
      db.prepare("INSERT INTO sync_folders (id, account_id, path, state, created_at) VALUES (?, 1, ?, 'idle', 0)").run(folder, `/tmp/${folder}`);
    }
    const batch = db.prepare('INSERT INTO sync_batches (folder_id, root, finished_at, added, modified, removed, bytes) VALUES (?, ?, ?, 0, 1, 0, 1)');
    for (let i = 1; i <= 3; i++) batch.run('f1', `root-f1-${i}`, i);
    batch.run('f2', 'root-f2-1', 1);
    migrate(db, MIGRATIONS);
    const rows = db.prepare('SELECT folder_id, root, kept FROM sync_batches ORDER BY id').all();
    expect(rows).toEqual([
      { folder_id: 'f1', root: 'root-f1-1', kept: 0 },
      { folder_id: 'f1', root: 'root-f1-2', kept: 0 },
      { folder_id: 'f1', root: 'root-f1-3', kept: 1 },
      { folder_id: 'f2', root: 'root-f2-1', kept: 1 },
    ]);
    expect(db.prepare('SELECT retention FROM sync_folders').all()).toEqual([{ retention: null }, { retention: null }]);
  });
});
