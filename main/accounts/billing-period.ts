/**
 * Ingress and egress accumulate per calendar month (UTC); the period starts at the month's first second.
 * Every authenticated request asks for the current period, so the last month computed is remembered
 * (building Dates for it cost about a microsecond a request).
 */
let lastStart = 0;
let lastNext = 0;

function monthOf(unixSeconds: number): void {
  if (unixSeconds >= lastStart && unixSeconds < lastNext) return;
  const date = new Date(unixSeconds * 1000);
  lastStart = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / 1000;
  lastNext = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / 1000;
}

export function periodStartOf(unixSeconds: number): number {
  monthOf(unixSeconds);
  return lastStart;
}

export function nextPeriodStart(unixSeconds: number): number {
  monthOf(unixSeconds);
  return lastNext;
}
