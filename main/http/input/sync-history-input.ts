import { check, custom, forward, object, optional, pipe, string, transform, unknown, type GenericSchema } from 'valibot';
import { validateSegments } from '../../content/read/index.js';
import { MAX_VERSIONS_PAGE } from '../../sync/history.js';
import { readRestoreTo } from '../../sync/restore-target.js';
import { emptyAsAbsent, field, parsedBy, queryFlag } from './fields.js';
import { SyncId, versionRoot } from './sync-input.js';

/**
 * The request schemas of a sync folder's history (issue "every version of a synced folder"): its versions, a
 * diff, a version's tree, a restore; each query's fields in the order the routes always checked them.
 */

const MAX_START = 1_000_000_000;

/** An integer of a versions page, from 0 to `max`; `fallback` when absent or empty. */
const pageInteger = (name: string, fallback: number, max: number): GenericSchema<unknown, number> =>
  field(
    pipe(
      unknown(),
      transform(emptyAsAbsent),
      custom<unknown>(
        (value) => value === undefined || (typeof value === 'string' && /^\d{1,9}$/.test(value) && Number(value) <= max),
        `${name} must be an integer from 0 to ${max}`,
      ),
      transform((value) => (value === undefined ? fallback : Number(value))),
    ),
  );

/** sync/versions: the folder, `limit` (default 50, at most MAX_VERSIONS_PAGE) and `start` (default 0). */
export const SyncVersionsQuery = pipe(
  object({ id: SyncId, limit: pageInteger('limit', 50, MAX_VERSIONS_PAGE), start: pageInteger('start', 0, MAX_START) }),
  forward(
    check((query) => query.limit !== 0, `limit must be an integer from 1 to ${MAX_VERSIONS_PAGE}`),
    ['limit'],
  ),
);

/** sync/diff: the folder and the two versions compared. */
export const SyncDiffQuery = object({ id: SyncId, from: versionRoot('from'), to: versionRoot('to') });

/** A path inside a version: '' or '/' is the folder itself, otherwise `/`-separated names (none empty, `.`, `..` or with NUL). */
const versionPath: GenericSchema<unknown, string[]> = field(
  pipe(
    unknown(),
    transform((value) => (value === undefined || value === null || value === '/' ? '' : value)),
    string('path must be a path inside the folder, `/`-separated'),
    transform((text) => (text === '' ? [] : text.replace(/^\/+/, '').replace(/\/+$/, '').split('/'))),
    parsedBy((segments: string[]) => {
      validateSegments(segments);
      return segments;
    }),
  ),
);

/** sync/tree: the directory of a version whose entries are listed. */
export const SyncTreeQuery = object({ path: versionPath, id: SyncId, root: versionRoot('root') });

/**
 * sync/restore: what of a version (`path`), whether it may replace what is there (`overwrite`, default false),
 * where (`to`: an absolute, normalized local path, sync/restore-target.ts; where it may lead is checked on the
 * disk by the restore; absent or empty, the synced folder), then the folder and the version.
 */
export const SyncRestoreQuery = object({
  path: versionPath,
  overwrite: queryFlag('overwrite', false),
  to: field(
    pipe(
      unknown(),
      transform(emptyAsAbsent),
      optional(
        pipe(
          string('to must be the absolute path of a folder'),
          parsedBy((text: string) => readRestoreTo(text)),
        ),
      ),
    ),
  ),
  id: SyncId,
  root: versionRoot('root'),
});
