/**
 * The History section of a sync folder's page (issue 15): what a version changed, the retention choice,
 * where a diff's path can be restored from, and what a restore wrote, in words.
 */
import type { SyncRestoreResult, SyncVersion } from '../../shared/api-types.js';
import { formatBytes, formatCount } from './format.js';

/** The service's default policy (main/sync/retention.ts): every version of a day, one a day for 30 days, one a week for a year. */
export const DEFAULT_RETENTION = '1d:all,30d:1d,1y:1w';

export type RetentionChoice = 'default' | 'all' | 'none' | 'custom';

export function retentionChoice(text: string): RetentionChoice {
  if (text === DEFAULT_RETENTION) return 'default';
  if (text === 'all' || text === 'none') return text;
  return 'custom';
}

/** The policy text a choice sends (custom: what the user typed, trimmed). */
export function retentionText(choice: RetentionChoice, custom: string): string {
  if (choice === 'default') return DEFAULT_RETENTION;
  if (choice === 'custom') return custom.trim();
  return choice;
}

const UNITS: Record<string, [string, string]> = {
  h: ['hour', 'hours'],
  d: ['day', 'days'],
  w: ['week', 'weeks'],
  m: ['month', 'months'],
  y: ['year', 'years'],
};

function span(text: string): string | null {
  const match = /^(\d+)([hdwmy])$/.exec(text);
  if (!match) return null;
  const count = Number(match[1]);
  const [one, many] = UNITS[match[2] ?? ''] ?? ['', ''];
  return count === 1 ? one : `${formatCount(count)} ${many}`; // "day" / "30 days"
}

/** "Every version of the last day, then one a day for 30 days, then one a week for a year"; the text itself when it is not tiers. */
export function describeRetention(text: string): string {
  if (text === 'all') return 'Every version is kept.';
  if (text === 'none') return 'Only the current version is kept.';
  const tiers = text.split(',').map((tier) => tier.trim().split(':'));
  const parts: string[] = [];
  for (const [age = '', every = ''] of tiers) {
    const within = span(age);
    const step = every === 'all' ? 'all' : span(every);
    if (within === null || step === null) return `Kept as ${text}.`;
    parts.push(
      step === 'all' ? `every version of the last ${within}` : `one a ${step.replace(/^\d+ /, '')} for ${/^\d/.test(within) ? within : `a ${within}`}`,
    );
  }
  const sentence = parts.join(', then ');
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}

/** "+3 ~1 −2" with words for screen readers in `label`. */
export function versionChanges(version: Pick<SyncVersion, 'added' | 'modified' | 'removed'>): { short: string; label: string } {
  const parts: Array<[number, string, string]> = [
    [version.added, '+', 'added'],
    [version.modified, '~', 'modified'],
    [version.removed, '−', 'removed'],
  ];
  const shown = parts.filter(([count]) => count > 0);
  if (shown.length === 0) return { short: 'No changes', label: 'No files changed' };
  return {
    short: shown.map(([count, sign]) => `${sign}${formatCount(count)}`).join(' '),
    label: shown.map(([count, , word]) => `${formatCount(count)} ${word}`).join(', '),
  };
}

/** What a restore wrote, as the toast says it: "Restored 3 files: 1 already up to date, 1 written beside the local copy." */
export function describeRestore(result: SyncRestoreResult): string {
  const files = result.written.filter((entry) => entry.kind === 'file');
  const beside = files.filter((entry) => entry.beside).length;
  const replaced = files.filter((entry) => entry.replaced).length;
  const parts: string[] = [];
  if (result.unchanged > 0) parts.push(`${formatCount(result.unchanged)} already up to date`);
  if (beside > 0) parts.push(`${formatCount(beside)} written beside the local copy`);
  if (replaced > 0) parts.push(`${formatCount(replaced)} replaced`);
  const head =
    files.length === 0
      ? result.unchanged > 0
        ? 'Nothing to restore'
        : 'Restored (no files)'
      : `Restored ${formatCount(files.length)} ${files.length === 1 ? 'file' : 'files'}`;
  return parts.length > 0 ? `${head}: ${parts.join(', ')}.` : `${head}.`;
}

/** '' for the whole folder, else the path without the trailing `/` an empty directory's diff entry has. */
export function restorablePath(diffPath: string): string {
  return diffPath.replace(/\/+$/, '');
}

/** The names of a `/`-separated path ('' → []). */
export function pathNames(path: string): string[] {
  return path === '' ? [] : path.split('/');
}

/** `/ipfs/<root>/<path>` with each name encoded once (a directory's ends in `/`). */
export function versionContentPath(root: string, path: string, directory: boolean): string {
  const names = pathNames(path).map((name) => `/${encodeURIComponent(name)}`);
  return `/ipfs/${root}${names.join('')}${directory ? '/' : ''}`;
}

/** "12.3 MB of older versions" for the history's unique bytes. */
export function describeHistoryBytes(bytes: number): string {
  return bytes > 0 ? `History holds ${formatBytes(bytes)} that the current version does not.` : 'History holds nothing beyond the current version.';
}

/** A version's time to the second ("Nov 26, 2026, 1:00:12 AM"): two versions a minute apart stay apart. */
export function formatVersionTime(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}
