import { BadInputError } from '../base/errors.js';

/**
 * Which versions of a synced folder its history keeps. `all` keeps every version, `none` only the current
 * one; tiers keep, among the versions younger than `withinSeconds`, every one (`everySeconds: 'all'`) or the
 * newest of each period of `everySeconds` (UTC days, weeks and so on, counted from the Unix epoch).
 */
export type RetentionPolicy = { keep: 'all' } | { keep: 'none' } | { keep: 'tiers'; tiers: readonly RetentionTier[] };

export interface RetentionTier {
  withinSeconds: number;
  everySeconds: number | 'all';
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const YEAR = 365 * DAY;

/** Every version of the last 24 hours, one a day for 30 days, one a week for a year. */
export const DEFAULT_RETENTION: RetentionPolicy = {
  keep: 'tiers',
  tiers: [
    { withinSeconds: DAY, everySeconds: 'all' },
    { withinSeconds: 30 * DAY, everySeconds: DAY },
    { withinSeconds: YEAR, everySeconds: WEEK },
  ],
};

export interface VersionTime {
  /** Unix seconds the version was made. */
  createdAt: number;
}

/**
 * The indexes of the versions `policy` keeps at `nowSeconds`; `versions` may come in any order. The newest
 * version (the folder's current root) is always kept. A version that falls out of every tier is released for
 * good, so selection must never bring one back: it does not, as long as each tier's period divides the next
 * one's (days within weeks), which holds for the default and for any policy made of m/h/d/w periods.
 */
export function keptVersions(versions: readonly VersionTime[], policy: RetentionPolicy, nowSeconds: number): Set<number> {
  const kept = new Set<number>();
  if (versions.length === 0) return kept;
  let newest = 0;
  versions.forEach((version, index) => {
    if (version.createdAt > (versions[newest] as VersionTime).createdAt) newest = index;
  });
  kept.add(newest);
  if (policy.keep === 'none') return kept;
  if (policy.keep === 'all') return new Set(versions.keys());
  for (const tier of policy.tiers) {
    // The newest version in each period of this tier, among the versions young enough for it.
    const newestInPeriod = new Map<number, number>();
    versions.forEach((version, index) => {
      if (nowSeconds - version.createdAt > tier.withinSeconds) return;
      if (tier.everySeconds === 'all') {
        kept.add(index);
        return;
      }
      const period = Math.floor(version.createdAt / tier.everySeconds);
      const held = newestInPeriod.get(period);
      if (held === undefined || version.createdAt > (versions[held] as VersionTime).createdAt) newestInPeriod.set(period, index);
    });
    for (const index of newestInPeriod.values()) kept.add(index);
  }
  return kept;
}

const UNITS: Record<string, number> = { m: MINUTE, h: HOUR, d: DAY, w: WEEK, y: YEAR };
const DURATION = /^(\d{1,6})([mhdwy])$/;
const MAX_TIERS = 16;
const MAX_SECONDS = 100 * YEAR;

function parseDuration(text: string, what: string): number {
  const match = DURATION.exec(text);
  const seconds = match === null ? 0 : Number(match[1]) * (UNITS[match[2] as string] as number);
  if (seconds <= 0 || seconds > MAX_SECONDS) throw new BadInputError(`keep: ${what} "${text}" is not a duration such as 90m, 24h, 30d, 4w or 1y (up to 100y)`);
  return seconds;
}

/**
 * A policy from its text: `all`, `none`, or tiers `<within>:<every>` separated by commas, `every` being a
 * duration or `all` (the default is `24h:all,30d:1d,1y:1w`, which formatRetention writes as `1d:all,30d:1d,1y:1w`). Anything else is a BadInputError.
 */
export function parseRetention(text: string): RetentionPolicy {
  const trimmed = text.trim();
  if (trimmed === 'all') return { keep: 'all' };
  if (trimmed === 'none') return { keep: 'none' };
  const parts = trimmed.split(',').map((part) => part.trim());
  if (trimmed === '' || parts.length > MAX_TIERS) throw new BadInputError(`keep: must be all, none or up to ${MAX_TIERS} tiers like 24h:all,30d:1d,1y:1w`);
  const tiers = parts.map((part): RetentionTier => {
    const [within, every, extra] = part.split(':');
    if (within === undefined || every === undefined || extra !== undefined) throw new BadInputError(`keep: "${part}" is not <within>:<every>, like 30d:1d`);
    return { withinSeconds: parseDuration(within, 'within'), everySeconds: every === 'all' ? 'all' : parseDuration(every, 'every') };
  });
  return { keep: 'tiers', tiers: [...tiers].sort((a, b) => a.withinSeconds - b.withinSeconds) };
}

function formatDuration(seconds: number): string {
  for (const [unit, size] of Object.entries(UNITS).reverse()) if (seconds % size === 0) return `${seconds / size}${unit}`;
  return `${seconds / MINUTE}m`;
}

/** The text form of a policy, as parseRetention reads it. */
export function formatRetention(policy: RetentionPolicy): string {
  if (policy.keep !== 'tiers') return policy.keep;
  return policy.tiers
    .map((tier) => `${formatDuration(tier.withinSeconds)}:${tier.everySeconds === 'all' ? 'all' : formatDuration(tier.everySeconds)}`)
    .join(',');
}
