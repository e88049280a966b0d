/**
 * The Overview's charts from GET /api/v0/stats/daily: columns for uPlot (x in Unix seconds at each UTC
 * midnight) and the sentences that stand in for the charts for screen readers. Pure.
 */
import type { DailyUsage } from '../../shared/api-types.js';
import { formatBytes, formatCount, formatDay } from './format.js';

export interface UsageSeries {
  x: number[];
  ingress: number[];
  egress: number[];
  pinnedBytes: number[];
  pinnedCount: number[];
}

export function usageSeries(days: readonly DailyUsage[]): UsageSeries {
  return {
    x: days.map((day) => Date.parse(`${day.day}T00:00:00Z`) / 1000),
    ingress: days.map((day) => day.ingress),
    egress: days.map((day) => day.egress),
    pinnedBytes: days.map((day) => day.pinned_bytes),
    pinnedCount: days.map((day) => day.pinned_count),
  };
}

/** The fewest days a chart draws: a new account's one day of traffic reads as a bar, not a sliver. */
export const CHART_MIN_DAYS = 7;

const isQuiet = (day: DailyUsage): boolean => day.ingress === 0 && day.egress === 0 && day.pinned_bytes === 0;

/**
 * The days the charts draw: the leading days on which nothing happened yet are left out (an account made
 * yesterday does not get 28 empty columns and two thin bars at the edge), keeping at least `minimum`
 * days. The summaries and the table keep every day asked for.
 */
export function chartDays(days: readonly DailyUsage[], minimum = CHART_MIN_DAYS): readonly DailyUsage[] {
  const firstActive = days.findIndex((day) => !isQuiet(day));
  const from = firstActive === -1 ? days.length : firstActive;
  return days.slice(Math.max(0, Math.min(from, days.length - minimum)));
}

const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);

/** "Last 30 days: 12 MiB uploaded, 3 MiB served. Busiest day: Nov 24, 10 MiB uploaded, 1 MiB served." */
export function trafficSummary(days: readonly DailyUsage[]): string {
  const span = `Last ${formatCount(days.length)} day${days.length === 1 ? '' : 's'}`;
  const ingress = sum(days.map((day) => day.ingress));
  const egress = sum(days.map((day) => day.egress));
  if (ingress === 0 && egress === 0) return `${span}: nothing uploaded or served yet.`;
  let busiest = days[0] as DailyUsage;
  for (const day of days) if (day.ingress + day.egress > busiest.ingress + busiest.egress) busiest = day;
  return `${span}: ${formatBytes(ingress)} uploaded, ${formatBytes(egress)} served. Busiest day: ${formatDay(busiest.day)}, ${formatBytes(busiest.ingress)} uploaded, ${formatBytes(busiest.egress)} served.`;
}

/** "Pinned storage went from 0 B to 12 MiB (3 pins) over the last 30 days." */
export function storageSummary(days: readonly DailyUsage[]): string {
  const first = days[0];
  const last = days[days.length - 1];
  if (!first || !last) return 'No pinned storage recorded yet.';
  const pins = `${formatCount(last.pinned_count)} pin${last.pinned_count === 1 ? '' : 's'}`;
  if (first.pinned_bytes === last.pinned_bytes)
    return `Pinned storage stayed at ${formatBytes(last.pinned_bytes)} (${pins}) over the last ${formatCount(days.length)} days.`;
  return `Pinned storage went from ${formatBytes(first.pinned_bytes)} to ${formatBytes(last.pinned_bytes)} (${pins}) over the last ${formatCount(days.length)} days.`;
}

/** An account with nothing in it yet: the Overview shows first steps instead of empty charts. */
export function isEmptyAccount(usage: { pinned_count: number; ingress: number; egress: number; ipns: number }): boolean {
  return usage.pinned_count === 0 && usage.ingress === 0 && usage.egress === 0 && usage.ipns === 0;
}
