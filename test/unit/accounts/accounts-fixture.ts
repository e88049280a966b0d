import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../../main/base/clock.js';
import { createSealedBox, type SealedBox } from '../../../main/base/sealed-box.js';
import { openDatabase, type Db } from '../../../main/store/db/database.js';
import { sqliteStore } from '../../../main/store/db/sqlite-store.js';
import type { AccountsContext } from '../../../main/accounts/context.js';
import { createKeyCache } from '../../../main/accounts/key-cache.js';
import { loadPlanCatalog } from '../../../main/accounts/plans.js';

export interface AccountsFixture {
  ctx: AccountsContext;
  /** The SQLite connection under `ctx.store`, for tests that set rows up by hand. */
  db: Db;
  dir: string;
  /** How many times the sealed box decrypted something. */
  opens(): number;
  close(): void;
}

/** A real SQLite file in a temp folder with every migration, a real sealed box, and a counting wrapper around `open`. */
export function accountsFixture(clock: Clock): AccountsFixture {
  const dir = mkdtempSync(join(tmpdir(), 'pinfold-accounts-'));
  const db = openDatabase(join(dir, 'pinfold.db'));
  const inner = createSealedBox(randomBytes(32));
  let opens = 0;
  const box: SealedBox = {
    seal: (plain, context) => inner.seal(plain, context),
    open: (sealed, context) => {
      opens++;
      return inner.open(sealed, context);
    },
  };
  const ctx: AccountsContext = { store: sqliteStore(db), plans: loadPlanCatalog(dir), box, clock, keyCache: createKeyCache() };
  return {
    ctx,
    db,
    dir,
    opens: () => opens,
    close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
