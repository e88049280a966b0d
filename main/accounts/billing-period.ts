/** Ingress and egress accumulate per calendar month (UTC); the period starts at the month's first second. */
export function periodStartOf(unixSeconds: number): number {
  const date = new Date(unixSeconds * 1000);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / 1000;
}

export function nextPeriodStart(unixSeconds: number): number {
  const date = new Date(unixSeconds * 1000);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / 1000;
}
