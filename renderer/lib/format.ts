/**
 * How the window turns numbers, sizes, times and identifiers into text. Pure functions with a fixed
 * locale, so what a page shows is predictable and the e2e tests can compute the same strings.
 */
import type { PartnerUserUsage } from '../../shared/api-types.js';

/** The service reports "no limit" as Number.MAX_SAFE_INTEGER. */
export function isUnlimited(limit: number): boolean {
  return limit >= Number.MAX_SAFE_INTEGER;
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'] as const;

/** Binary units, as the plans are sized: 1073741824 → "1 GiB", 1536 → "1.5 KiB", 1023 → "1023 B". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${Math.round(value)} B`;
  // One decimal below 100 units, none above; a trailing ".0" is dropped ("5 GiB", not "5.0 GiB").
  const rounded = value < 100 ? Math.round(value * 10) / 10 : Math.round(value);
  if (rounded >= 1024 && unit < BYTE_UNITS.length - 1) return `1 ${BYTE_UNITS[unit + 1]}`;
  return `${rounded} ${BYTE_UNITS[unit]}`;
}

/** Axis steps for byte values: 1, 2, 4 … 512 of each binary unit, so every label is a round size. */
export const BYTE_STEPS: readonly number[] = BYTE_UNITS.slice(0, 6).flatMap((_unit, power) =>
  [1, 2, 4, 8, 16, 32, 64, 128, 256, 512].map((factor) => factor * 1024 ** power),
);

const COUNT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatCount(count: number): string {
  if (!Number.isFinite(count) || count < 0) return '—';
  return COUNT.format(count);
}

export type UsageUnit = 'bytes' | 'count';

export function formatAmount(amount: number, unit: UsageUnit): string {
  return unit === 'bytes' ? formatBytes(amount) : formatCount(amount);
}

/** "Unlimited" for the owner's plan: a word, never a bar that looks empty or loading. */
export function formatLimit(limit: number, unit: UsageUnit): string {
  return isUnlimited(limit) ? 'Unlimited' : formatAmount(limit, unit);
}

/** Share of the limit used, 0..1 (capped), or null when there is no limit to measure against. */
export function usageFraction(used: number, limit: number): number | null {
  if (isUnlimited(limit)) return null;
  if (limit <= 0) return used > 0 ? 1 : 0;
  return Math.min(Math.max(used / limit, 0), 1);
}

export type UsageLevel = 'none' | 'ok' | 'high' | 'full';

/** `high` from 80 % on, so a limit is visible before it stops uploads. */
export function usageLevel(used: number, limit: number): UsageLevel {
  const fraction = usageFraction(used, limit);
  if (fraction === null) return 'none';
  if (fraction >= 1) return 'full';
  if (fraction >= 0.8) return 'high';
  return 'ok';
}

export function formatPercent(fraction: number): string {
  const percent = fraction * 100;
  if (percent > 0 && percent < 1) return '<1%';
  return `${Math.floor(percent)}%`;
}

const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** Bill dates are the first second of a month in UTC, so they are shown in UTC to keep the day right. */
export function formatDate(unixSeconds: number): string {
  if (!Number.isFinite(unixSeconds) || unixSeconds <= 0) return '—';
  return DATE.format(new Date(unixSeconds * 1000));
}

const TIME = new Intl.DateTimeFormat('en-US', { timeStyle: 'medium' });

export function formatTime(date: Date): string {
  return TIME.format(date);
}

const DATE_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** An event's moment in the user's time zone: "Nov 25, 2026, 3:04 PM". */
export function formatDateTime(unixSeconds: number): string {
  if (!Number.isFinite(unixSeconds) || unixSeconds <= 0) return '—';
  return DATE_TIME.format(new Date(unixSeconds * 1000));
}

const SHORT_DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** A UTC day of the usage table ("2026-11-25") as "Nov 25". */
export function formatDay(day: string): string {
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(ms) ? day : SHORT_DAY.format(new Date(ms));
}

const MEDIUM_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const RELATIVE = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
const RELATIVE_STEPS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
];

/**
 * "just now", "5 minutes ago", "yesterday", "in 2 hours"; past 30 days the date itself, since "4
 * months ago" says less than "Jul 3, 2026".
 */
export function formatRelative(unixSeconds: number, nowMs: number): string {
  if (!Number.isFinite(unixSeconds) || unixSeconds <= 0) return '—';
  let value = (unixSeconds * 1000 - nowMs) / 1000;
  if (Math.abs(value) < 45) return 'just now';
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(value) < size) return RELATIVE.format(Math.sign(value) * Math.round(Math.abs(value)), unit);
    value /= size;
  }
  return MEDIUM_DATE.format(new Date(unixSeconds * 1000));
}

/** Seconds as the largest whole unit that fits: 3600 → "1 hour", 90 → "90 seconds", 600 → "10 minutes". */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  const units: ReadonlyArray<[string, number]> = [
    ['day', 86_400],
    ['hour', 3600],
    ['minute', 60],
  ];
  for (const [name, size] of units) {
    if (seconds >= size && seconds % size === 0) {
      const count = seconds / size;
      return `${formatCount(count)} ${name}${count === 1 ? '' : 's'}`;
    }
  }
  return `${formatCount(seconds)} second${seconds === 1 ? '' : 's'}`;
}

/**
 * Keeps the start and the end of a long identifier (a CID, a key, an IPNS name), which are what people
 * compare: "bafybeigdy…kjhxu". The full value stays in the title and the copy button.
 */
export function middleEllipsis(value: string, head = 10, tail = 6): string {
  if (value.length <= head + tail + 1) return value;
  return `${value.slice(0, head)}…${value.slice(-tail)}`;
}

type UsageKey = 'pinned_count' | 'pinned_bytes' | 'ingress' | 'egress' | 'ipns';

export interface UsageRow {
  key: UsageKey;
  label: string;
  description: string;
  unit: UsageUnit;
  used: number;
  limit: number;
}

const ROWS: ReadonlyArray<Omit<UsageRow, 'used' | 'limit'>> = [
  { key: 'pinned_count', label: 'Pins', description: 'Content pinned by this account', unit: 'count' },
  { key: 'pinned_bytes', label: 'Pinned storage', description: 'Bytes held by your pins', unit: 'bytes' },
  { key: 'ingress', label: 'Ingress', description: 'Bytes uploaded this billing period', unit: 'bytes' },
  { key: 'egress', label: 'Egress', description: 'Bytes served this billing period', unit: 'bytes' },
  { key: 'ipns', label: 'IPNS names', description: 'Names created or imported', unit: 'count' },
];

/** The five usage figures of the Overview, each with its limit, in display order. */
export function usageRows(usage: PartnerUserUsage): UsageRow[] {
  return ROWS.map((row) => ({ ...row, used: usage[row.key], limit: usage[`${row.key}_limit`] }));
}
