import { BadInputError } from '../base/errors.js';
import { validateSegments } from '../content/read/index.js';
import type { RestoreTarget } from '../sync/restore.js';
import { readRestoreTo } from '../sync/restore-target.js';

/**
 * The query of `POST /api/v0/sync/restore`. `path`: '' or '/' is the whole folder, otherwise `/`-separated names, none empty, `.`, `..` or with NUL.
 * `to`: an absolute, normalized local path (sync/restore-target.ts; where it may lead is checked on the
 * disk by the restore). `overwrite`: `true` or `false` (default).
 */
export function parseRestoreTarget(query: Record<string, unknown>): RestoreTarget {
  const params: RestoreTarget = { path: restorePath(query.path), overwrite: flag(query.overwrite, 'overwrite') };
  if (query.to !== undefined && query.to !== '') params.to = readRestoreTo(query.to);
  return params;
}

/** A path inside a version: '' or '/' is the folder itself, otherwise `/`-separated names (none empty, `.`, `..` or with NUL). */
export function restorePath(value: unknown): string[] {
  if (value === undefined || value === '' || value === '/') return [];
  if (typeof value !== 'string') throw new BadInputError('path must be a path inside the folder, `/`-separated');
  const segments = value.replace(/^\/+/, '').replace(/\/+$/, '').split('/');
  validateSegments(segments);
  return segments;
}

function flag(value: unknown, name: string): boolean {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw new BadInputError(`${name} must be true or false`);
}
