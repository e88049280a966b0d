import path from 'node:path';
import { CID } from 'multiformats/cid';
import { BadInputError } from '../base/errors.js';
import { tryParseIpnsName } from '../names/name-parse.js';
import { parseFollowTarget } from '../sync/follow/follow-target.js';
import { MAX_VERSIONS_PAGE } from '../sync/history.js';
import { validateIgnorePatterns } from '../sync/ignore-rules.js';
import { parseRetention, type RetentionPolicy } from '../sync/retention.js';
import type { SyncAddInput, SyncFollowInput } from '../sync/sync-service.js';

/**
 * The request parameters of the sync routes (contract sections 9 and 11, the window's extensions), checked
 * into what the sync service takes: their type, presence, length and range. What needs the folders (a path
 * that is no folder, a name another folder publishes, an id of no folder) is the service's to refuse.
 */

const MAX_ID = 64;
const MAX_FOLDER_PATH = 4096;

/** A sync folder's id (`id` of the query). */
export function parseSyncId(value: unknown): string {
  if (value === undefined || value === null || value === '') throw new BadInputError('id is required');
  if (typeof value !== 'string' || value.length > MAX_ID) throw new BadInputError('id must be a sync folder id');
  return value;
}

/** `wait` of sync/add: absent or `true` (answer once the first scan is pinned), or `false`. */
export function parseWait(value: unknown): boolean {
  if (value === undefined || value === '' || value === 'true') return true;
  if (value === 'false') return false;
  throw new BadInputError('wait must be true or false');
}

/** `force` of sync/publish: absent or `false`, or `true`. */
export function parseForce(value: unknown): boolean {
  if (value === undefined || value === '' || value === 'false' || value === false) return false;
  if (value === 'true' || value === true) return true;
  throw new BadInputError('force must be true or false');
}

/** The text of a folder's path (sync/add, sync/follow): present, absolute, not absurdly long; not yet looked at on the disk. */
export function parseFolderPathText(value: unknown): string {
  if (value === undefined || value === null || value === '') throw new BadInputError('path is required', 'path');
  if (typeof value !== 'string') throw new BadInputError('path must be a string', 'path');
  if (value.length > MAX_FOLDER_PATH || value.includes('\0')) throw new BadInputError('path is not a valid folder path', 'path');
  if (!path.isAbsolute(value)) throw new BadInputError('path must be absolute', 'path');
  return value;
}

function parseIpns(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'boolean') throw new BadInputError('ipns must be true or false');
  return value;
}

/** `ipns_name` of sync/add: an IPNS name in its canonical spelling, never beside `ipns: false`; undefined when absent. */
function parseGivenName(value: unknown, ipns: boolean): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const parsed = typeof value === 'string' ? tryParseIpnsName(value.trim()) : undefined;
  if (parsed === undefined) throw new BadInputError('ipns_name must be an IPNS name (k51…)');
  if (!ipns) throw new BadInputError('ipns_name cannot be given with ipns: false');
  return parsed.name;
}

/** `keep` of sync/add: the retention policy's text; absent, the default (undefined). */
function parseAddKeep(value: unknown): RetentionPolicy | undefined {
  if (value === undefined || value === null) return undefined;
  // Anything but text reads as the empty policy, refused with the message that says what a policy is.
  return parseRetention(typeof value === 'string' ? value : '');
}

/** The body of sync/add, checked in the order the fields were always checked (the first fault is the one answered). */
export function parseSyncAddBody(body: Record<string, unknown>): SyncAddInput {
  const ipns = parseIpns(body.ipns);
  const ipnsName = parseGivenName(body.ipns_name, ipns);
  const ignore = validateIgnorePatterns(body.ignore);
  const keep = parseAddKeep(body.keep);
  const folderPath = parseFolderPathText(body.path);
  return { path: folderPath, ipns, ignore, ...(ipnsName === undefined ? {} : { ipnsName }), ...(keep === undefined ? {} : { keep }) };
}

/** The body of sync/follow: what to follow (name, from), then where. */
export function parseSyncFollowBody(body: Record<string, unknown>): SyncFollowInput {
  const target = parseFollowTarget(body.name, body.from);
  return { target, path: parseFolderPathText(body.path) };
}

/** `ignore` of sync/ignore: required (`[]` clears them). */
export function parseIgnoreBody(body: Record<string, unknown>): string[] {
  if (body.ignore === undefined || body.ignore === null) throw new BadInputError('ignore is required (an array of gitignore patterns; [] for none)');
  return validateIgnorePatterns(body.ignore);
}

/** `keep` of sync/retention: required, the policy's text. */
export function parseRetentionBody(body: Record<string, unknown>): RetentionPolicy {
  if (typeof body.keep !== 'string') throw new BadInputError('keep is required: all, none or tiers like 24h:all,30d:1d,1y:1w');
  return parseRetention(body.keep);
}

/** `limit` (default 50, at most MAX_VERSIONS_PAGE) and `start` (default 0) of a versions page. */
export function parseVersionsPage(limit: unknown, start: unknown): { limit: number; start: number } {
  const integer = (value: unknown, name: string, fallback: number, max: number): number => {
    if (value === undefined || value === '') return fallback;
    if (typeof value !== 'string' || !/^\d{1,9}$/.test(value) || Number(value) > max) throw new BadInputError(`${name} must be an integer from 0 to ${max}`);
    return Number(value);
  };
  const parsed = { limit: integer(limit, 'limit', 50, MAX_VERSIONS_PAGE), start: integer(start, 'start', 0, 1_000_000_000) };
  if (parsed.limit === 0) throw new BadInputError(`limit must be an integer from 1 to ${MAX_VERSIONS_PAGE}`);
  return parsed;
}

/** A parameter naming a version by its root (`root`, `from`, `to`): a CID; whether the folder kept it is the service's to say. */
export function parseVersionRoot(value: unknown, name: string): CID {
  if (typeof value !== 'string' || value === '') throw new BadInputError(`${name} is required (a version's root CID)`);
  try {
    return CID.parse(value);
  } catch {
    throw new BadInputError(`${name} is not a valid CID: ${value.slice(0, 100)}`);
  }
}
