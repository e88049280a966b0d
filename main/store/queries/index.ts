import * as accounts from './accounts.js';
import * as blockIndex from './block-index.js';
import * as folders from './folders.js';
import * as keys from './keys.js';
import * as meta from './meta.js';
import * as names from './names.js';
import * as pins from './pins.js';
import * as sync from './sync.js';
import * as uploads from './uploads.js';
import * as usage from './usage.js';

/**
 * Every repository's queries, by the repository's name, written once for both engines (sql/query.ts): each
 * engine binds them, SQLite in store/db/queries.ts, PostgreSQL in store/pg/modules.ts.
 */
export const QUERIES = { accounts, keys, usage, uploads, pins, names, folders, sync, meta, blockIndex };

export type RepositoryQueries = typeof QUERIES;
