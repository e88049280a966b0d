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
import { onPostgres } from './pg-queries.js';

const accounts = onPostgres(accountsQueries);
const blockIndex = onPostgres(blockIndexQueries);
const folders = onPostgres(foldersQueries);
const names = onPostgres(namesQueries);
const pins = onPostgres(pinsQueries);
const sync = onPostgres(syncQueries);
const keys = onPostgres(keysQueries);
const meta = onPostgres(metaQueries);
const uploads = onPostgres(uploadsQueries);
const usage = onPostgres(usageQueries);

/**
 * The PostgreSQL query modules, by repository: pg-store.ts binds each into the repository of that name.
 * Each module's functions are the SQLite ones' (store/db/*-queries.ts) with `(q: Queryable, …)` first and a
 * promise out; test/integration/repositories/ checks both engines against the same cases.
 */
export const PG_QUERY_MODULES = {
  accounts,
  keys,
  meta,
  uploads,
  usage,
  pins,
  folders,
  names,
  sync,
  blockIndex,
};
