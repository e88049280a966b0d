import * as accountsQueries from '../queries/accounts.js';
import * as blockIndexQueries from '../queries/block-index.js';
import * as foldersQueries from '../queries/folders.js';
import * as keysQueries from '../queries/keys.js';
import * as metaQueries from '../queries/meta.js';
import * as namesQueries from '../queries/names.js';
import * as pinsQueries from '../queries/pins.js';
import * as syncQueries from '../queries/sync.js';
import * as uploadsQueries from '../queries/uploads.js';
import * as usageQueries from '../queries/usage.js';
import type { Db } from './database.js';
import { cachedRead } from './read-cache.js';
import { onSqlite } from './sqlite-queries.js';

const accountsOnSqlite = onSqlite(accountsQueries);
const usageOnSqlite = onSqlite(usageQueries);

/**
 * The queries of store/queries on SQLite, by repository: synchronous functions `(db, ...args) => R`, which
 * sqlite-store.ts binds into the repositories. The rows every request reads (its account, the account's
 * usage) come from the read cache while the database is unchanged; the rows they answer may be shared
 * with other readers (see read-cache.ts): never mutate them.
 */
export const SQLITE_QUERIES = {
  accounts: {
    ...accountsOnSqlite,
    accountById: (db: Db, id: number) => cachedRead(db, `account:${id}`, () => accountsOnSqlite.accountById(db, id)),
  },
  keys: onSqlite(keysQueries),
  usage: {
    ...usageOnSqlite,
    usageOf: (db: Db, accountId: number) => cachedRead(db, `usage:${accountId}`, () => usageOnSqlite.usageOf(db, accountId)),
  },
  uploads: onSqlite(uploadsQueries),
  pins: onSqlite(pinsQueries),
  names: onSqlite(namesQueries),
  folders: onSqlite(foldersQueries),
  sync: onSqlite(syncQueries),
  meta: onSqlite(metaQueries),
  blockIndex: onSqlite(blockIndexQueries),
};
