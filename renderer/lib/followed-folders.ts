/**
 * How the Sync pages read a followed folder (a sync folder row with `mode: 'follow'`, issue 24) and a sync
 * folder's conflict: where it follows from, the version it holds, when it last looked, what it is doing in
 * words, its local changes, and the follow form's input and the service's refusals. Pure, so every case is
 * unit-tested without a browser.
 */
import type { SyncConflict, SyncFolderView, SyncLocalChange } from '../../shared/api-types.js';
import { formatBytes, formatCount, formatRelative, middleEllipsis } from './format.js';
import { sentence } from './messages.js';
import { folderCondition } from './sync-folders.js';
import type { StatusLook } from './status.js';

export function isFollowed(row: Pick<SyncFolderView, 'mode'>): boolean {
  return row.mode === 'follow';
}

/** An IPNS name short enough for a row, its start and end kept: "k51qzi5uqu…llnv0v8". */
export function shortName(name: string): string {
  return middleEllipsis(name, 10, 6);
}

/** The gateway of a source given as a URL (`https://gw.example/ipns/k51…` → "gw.example"), else null. */
export function sourceGateway(source: string): string | null {
  if (!/^https?:\/\//i.test(source)) return null;
  try {
    return new URL(source).host;
  } catch {
    return null;
  }
}

/**
 * Where a followed folder comes from, in a few words: the gateway's host when it was given as a gateway URL,
 * else the name shortened ("from gw.example", "from k51qzi5uqu…llnv0v8").
 */
export function followOrigin(row: Pick<SyncFolderView, 'source' | 'ipns_name'>): string {
  const gateway = sourceGateway(row.source);
  if (gateway) return gateway;
  const name = row.ipns_name || row.source.replace(/^\/ipns\//, '');
  return name === '' ? 'an IPNS name' : shortName(name);
}

/**
 * The version a followed folder holds, by its record's sequence ("Sequence 42"; a name's first record is 0,
 * so "Version 0" would read wrong), or that none has arrived yet.
 */
export function heldVersion(row: Pick<SyncFolderView, 'root' | 'seq'>): string {
  if (row.root === '') return 'None yet';
  return `Sequence ${formatCount(row.seq)}`;
}

/**
 * The last look for a newer record, precise while recent (a followed folder looks every 30 s, so "just now"
 * would say nothing): "just now" under 5 s, "20 s ago" under a minute, then as every other time.
 */
export function checkedAgo(checkedAt: number, nowMs: number): string {
  if (!Number.isFinite(checkedAt) || checkedAt <= 0) return 'Not yet';
  const seconds = Math.round(nowMs / 1000 - checkedAt);
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  return formatRelative(checkedAt, nowMs);
}

/** The same as a phrase for a row: "Checked 20 s ago", "Not checked yet". */
export function lastCheck(checkedAt: number, nowMs: number): string {
  if (!Number.isFinite(checkedAt) || checkedAt <= 0) return 'Not checked yet';
  return `Checked ${checkedAgo(checkedAt, nowMs)}`;
}

const FOLLOW_LOOKS: Record<SyncFolderView['state'], StatusLook> = {
  scanning: { label: 'Checking', tone: 'progress' },
  syncing: { label: 'Updating', tone: 'progress' },
  idle: { label: 'Up to date', tone: 'success' },
  paused: { label: 'Paused', tone: 'neutral' },
  error: { label: 'Error', tone: 'danger' },
};

/** A followed folder's state as a word: it checks and updates rather than scans and syncs. */
export function followStateLook(row: Pick<SyncFolderView, 'state' | 'root'>): StatusLook {
  if (row.state === 'idle' && row.root === '') return { label: 'Waiting', tone: 'warning' };
  return FOLLOW_LOOKS[row.state];
}

const plural = (count: number, one: string, many: string): string => `${formatCount(count)} ${count === 1 ? one : many}`;

/**
 * The sentence under a followed folder's state: what it is doing, or what is wrong (source offline, disk
 * full: the service's reason) and what happens next. Empty for a folder that is simply up to date.
 */
export function followStateDetail(row: SyncFolderView): string {
  const condition = folderCondition(row);
  if (condition === 'paused') return 'Paused by you: newer versions are not fetched until you resume.';
  if (row.state === 'paused') return `${sentence(row.error)} Pinfold tries again every few seconds, or now with Retry.`;
  if (row.state === 'error') return `${sentence(row.error || 'the last update failed')} Pinfold tries again shortly, or now with Retry.`;
  if (row.state === 'scanning') return row.root === '' ? 'Looking for the latest version of the name…' : 'Looking for a newer version…';
  if (row.state === 'syncing') return followProgress(row).text;
  if (row.root === '') return 'No version of the name found yet: Pinfold keeps looking.';
  if (row.local_changes.length > 0) return `${localChangesCount(row.local_changes.length)}: the incoming files are written beside them.`;
  return '';
}

export interface FollowProgress {
  /** 0..1 while files are written and their number is known; null (an indeterminate bar) otherwise. */
  fraction: number | null;
  text: string;
}

/**
 * An update in flight, in words. The runner fetches first (only the bytes received count then, with no
 * total: a walk learns the DAG as it goes) and then writes files (the file being written is named, the files
 * still to write are `pending`), so only the bytes are said while fetching, and files while writing; a bar
 * fills only when a total is known.
 */
export function followProgress(row: SyncFolderView): FollowProgress {
  const which = row.root === '' ? 'the first version' : 'the new version';
  if (row.current_file !== '' || row.pending > 0) {
    const total = row.files_done + row.pending;
    return row.pending > 0
      ? { fraction: row.files_done / total, text: `Writing ${which}: ${formatCount(row.files_done)} of ${plural(total, 'file', 'files')}` }
      : { fraction: null, text: `Writing ${which}: ${plural(row.files_done, 'file', 'files')} written` };
  }
  if (row.bytes_done > 0) return { fraction: null, text: `Fetching ${which}: ${formatBytes(row.bytes_done)} received` };
  return { fraction: null, text: `Fetching ${which}…` };
}

/** "1 local change", "3 local changes". */
export function localChangesCount(count: number): string {
  return plural(count, 'local change', 'local changes');
}

const CHANGE_WORDS: Record<SyncLocalChange['change'], string> = {
  modified: 'Modified here',
  added: 'Added here',
  deleted: 'Deleted here',
};

export function localChangeKind(change: SyncLocalChange['change']): string {
  return CHANGE_WORDS[change];
}

/** How a conflict's record reached this machine: "through <host>" (a routing endpoint or gateway), or pushed to this gateway. */
export function conflictSource(conflict: Pick<SyncConflict, 'source'>): string {
  if (conflict.source === 'pushed') return 'pushed to this gateway';
  return `through ${sourceGateway(conflict.source) ?? conflict.source}`;
}

/** The follow form's extra gateways: one per line (or separated by spaces or commas), blanks dropped, duplicates once. */
export function parseGatewayLines(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((line) => line.trim())
        .filter((line) => line !== ''),
    ),
  ];
}

/** Which field of the follow form the service's refusal is about (the envelope's `param`). */
export type FollowField = 'name' | 'path' | 'from';

const FOLLOW_FIELDS: readonly FollowField[] = ['name', 'path', 'from'];

const isFollowField = (param: string | undefined): param is FollowField => FOLLOW_FIELDS.some((field) => field === param);

export interface FollowRefusal {
  field: FollowField | null;
  message: string;
}

/**
 * The service's refusal placed where the user can fix it: one about `name` beside the name field, `path`
 * beside the folder, `from` beside the gateways (a 409 for a folder already synced names `path` too), as the
 * envelope's `param` says; anything else for the whole form. Beside its field, the message loses the
 * `<param>: ` it starts with (the field's label says it); otherwise the service's words are shown as they are.
 */
export function followRefusal(param: string | undefined, message: string): FollowRefusal {
  if (!isFollowField(param)) return { field: null, message: sentence(message) };
  const prefix = `${param}: `;
  const own = message.slice(0, prefix.length).toLowerCase() === prefix ? message.slice(prefix.length) : message;
  return { field: param, message: sentence(own) };
}

/** What the form checks before asking the service: a name and an absolute-looking path are there. */
export function followInputProblems(name: string, path: string): Partial<Record<FollowField, string>> {
  const problems: Partial<Record<FollowField, string>> = {};
  if (name.trim() === '') problems.name = 'Type the IPNS name to follow, /ipns/<name>, or a gateway link ending in /ipns/<name>.';
  if (path.trim() === '') problems.path = "Type the folder's full path, or choose it.";
  return problems;
}
