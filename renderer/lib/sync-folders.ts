/**
 * How the Sync pages read a sync folder's row (GET /api/v0/sync, `event: sync`): its name, what it is
 * doing in words, which actions fit its state, and the live list kept current by events. Pure, so every
 * state a folder can be in is unit-tested without a browser.
 */
import type { SyncFolderRemoved, SyncFolderView } from '../../shared/api-types.js';
import { formatBytes, formatCount } from './format.js';
import { sentence } from './messages.js';

/** The last segment of a folder path, POSIX or Windows: "/home/me/photos/" → "photos"; a root stays whole. */
export function folderName(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  if (trimmed === '' || /^[A-Za-z]:$/.test(trimmed)) return path;
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return trimmed.slice(cut + 1);
}

/**
 * What a folder needs from its user:
 * - `paused`: paused by its user (Pause); Resume starts it again.
 * - `stalled`: in error, or paused by the service because its folder is gone (a deleted folder, an
 *   unmounted drive); the service retries by itself, Retry tries now.
 * - `running`: scanning, syncing or up to date.
 */
export type FolderCondition = 'paused' | 'stalled' | 'running';

export function folderCondition(row: Pick<SyncFolderView, 'state' | 'error'>): FolderCondition {
  if (row.state === 'error') return 'stalled';
  // The service pauses a folder whose root vanished with the reason in `error`; its user's Pause clears it.
  if (row.state === 'paused') return row.error === '' ? 'paused' : 'stalled';
  return 'running';
}

export interface SyncProgress {
  filesDone: number;
  /** Files done plus the changes still waiting (the batch's own and any seen since). */
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  /** 0..1 by bytes (files when there are no bytes to count), or null before anything is known. */
  fraction: number | null;
}

/** The progress of the batch in flight, for a folder that is syncing; null otherwise. */
export function syncProgress(row: SyncFolderView): SyncProgress | null {
  if (row.state !== 'syncing') return null;
  const filesTotal = row.files_done + row.pending;
  const bytesTotal = row.bytes_done + row.bytes_pending;
  const fraction = bytesTotal > 0 ? row.bytes_done / bytesTotal : filesTotal > 0 ? row.files_done / filesTotal : null;
  return { filesDone: row.files_done, filesTotal, bytesDone: row.bytes_done, bytesTotal, fraction };
}

const plural = (count: number, one: string, many: string): string => `${formatCount(count)} ${count === 1 ? one : many}`;

/** "3 of 12 files · 1.5 MiB of 4 MiB" */
export function describeProgress(progress: SyncProgress): string {
  const files = `${formatCount(progress.filesDone)} of ${plural(progress.filesTotal, 'file', 'files')}`;
  return progress.bytesTotal > 0 ? `${files} · ${formatBytes(progress.bytesDone)} of ${formatBytes(progress.bytesTotal)}` : files;
}

/** What the folder holds: "1,204 files · 3.4 GiB". */
export function describeContent(row: Pick<SyncFolderView, 'files' | 'bytes'>): string {
  return `${plural(row.files, 'file', 'files')} · ${formatBytes(row.bytes)}`;
}

/**
 * The sentence under a folder's state: what it is doing, or what is wrong and what happens next. Empty
 * for a folder that is simply up to date.
 */
export function stateDetail(row: SyncFolderView): string {
  const condition = folderCondition(row);
  if (condition === 'paused') return 'Paused by you: changes are not synced until you resume.';
  if (row.state === 'paused') return `${sentence(row.error)} Pinfold tries again every few seconds, or now with Retry.`;
  if (row.state === 'error') return `${sentence(row.error || 'the last batch failed')} Pinfold tries again shortly, or now with Retry.`;
  if (row.state === 'scanning') return row.root === '' ? 'Reading the folder for the first time…' : 'Looking for changes…';
  if (row.state === 'syncing') {
    const progress = syncProgress(row);
    return progress ? describeProgress(progress) : 'Syncing…';
  }
  // Up to date, but some files could not be read (they stay out of the root until they can be).
  if (row.unreadable.length > 0)
    return `${plural(row.unreadable.length, 'file', 'files')} cannot be read and ${row.unreadable.length === 1 ? 'is' : 'are'} left out.`;
  if (row.pending > 0) return `${plural(row.pending, 'change', 'changes')} waiting to settle.`;
  return '';
}

/** What one settled batch changed, zeros left out: "3 added, 1 removed"; "No files changed" for none (an empty first scan). */
export function describeBatch(batch: { added: number; modified: number; removed: number }): string {
  const parts = [
    [batch.added, 'added'],
    [batch.modified, 'modified'],
    [batch.removed, 'removed'],
  ] as const;
  const said = parts.filter(([count]) => count > 0).map(([count, what]) => `${formatCount(count)} ${what}`);
  return said.length > 0 ? said.join(', ') : 'No files changed';
}

/** Where the folder's content is published: '' while the first scan runs, or when it has no IPNS name. */
export function ipnsNote(row: Pick<SyncFolderView, 'root' | 'ipns_name'>): string {
  if (row.ipns_name !== '') return '';
  return row.root === '' ? 'After the first scan' : 'Not published';
}

export type SyncEventPayload = SyncFolderView | SyncFolderRemoved;

/**
 * The list after one `event: sync`: a known folder's row replaced in place, a new one first (the API
 * lists newest first), a removed one dropped. The same array when nothing changes.
 */
export function applySyncEvent(rows: readonly SyncFolderView[], event: SyncEventPayload): readonly SyncFolderView[] {
  if ('removed' in event) {
    return rows.some((row) => row.id === event.id) ? rows.filter((row) => row.id !== event.id) : rows;
  }
  const index = rows.findIndex((row) => row.id === event.id);
  if (index === -1) return [event, ...rows];
  const next = [...rows];
  next[index] = event;
  return next;
}

/** The service's limits on a folder's own patterns (main/sync/ignore-rules.ts), checked here first for line numbers. */
export const MAX_IGNORE_PATTERNS = 1000;
export const MAX_IGNORE_PATTERN_LENGTH = 1024;

export interface IgnoreTextProblem {
  /** 1-based line of the text. */
  line: number;
  message: string;
}

export interface ParsedIgnoreText {
  patterns: string[];
  problems: IgnoreTextProblem[];
}

/**
 * The ignore editor's text as the patterns sync/ignore takes: one per line, blank lines dropped (as
 * gitignore does), everything else kept as typed. A line the service would refuse is reported with its
 * line number; the count limit is left to the service, which says it plainly.
 */
export function parseIgnoreText(text: string): ParsedIgnoreText {
  const patterns: string[] = [];
  const problems: IgnoreTextProblem[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    if (line.length > MAX_IGNORE_PATTERN_LENGTH) {
      problems.push({
        line: index + 1,
        message: `Line ${index + 1} is ${formatCount(line.length)} characters long; a pattern can have at most ${formatCount(MAX_IGNORE_PATTERN_LENGTH)}.`,
      });
    } else if (/[\0\r]/.test(line)) {
      problems.push({ line: index + 1, message: `Line ${index + 1} contains a control character that no pattern can hold.` });
    }
    patterns.push(line);
  });
  return { patterns, problems };
}

export function ignoreText(patterns: readonly string[]): string {
  return patterns.join('\n');
}

/** The same patterns in the same order (saving them again would only rescan the folder). */
export function samePatterns(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((pattern, index) => pattern === b[index]);
}

/**
 * A path for a shell command, quoted when it needs to be: single quotes for a POSIX shell, double quotes
 * for a Windows path (cmd and PowerShell take a backslash literally, and no Windows name holds a quote).
 */
export function shellArgument(value: string): string {
  if (/^[\w./:~@+-]+$/.test(value)) return value;
  if (/^[A-Za-z]:[\\/]/.test(value) || value.includes('\\')) return `"${value}"`;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command that syncs a folder from a terminal, for the service whose data folder is `dataDir`. The
 * folder is a placeholder to replace (named after a dropped folder when there was one); not `<folder>`,
 * which a shell would read as a redirection.
 */
export function syncAddCommand(dataDir: string | undefined, name = 'folder'): string {
  return `pinfold sync add ${shellArgument(`/path/to/${name}`)}${dataDir ? ` --data ${shellArgument(dataDir)}` : ''}`;
}

/**
 * Why the service refused a folder, for someone who dropped or typed it: its messages start with the
 * parameter at fault ("path: folder not found: …"), which says nothing to them.
 */
export function addProblem(message: string): string {
  return sentence(message.replace(/^path:\s*/i, ''));
}

/** The same, named after the folder, for a drop of several: "report.pdf: Not a folder: /home/me/report.pdf." */
export function addFailure(name: string, message: string): string {
  return `${name}: ${addProblem(message)}`;
}
