export interface UsageRow {
  accountId: number;
  periodStart: number;
  ingress: number;
  egress: number;
  pinnedCount: number;
  pinnedBytes: number;
  ipnsCount: number;
}

export type UsageColumn = 'ingress' | 'egress' | 'pinned_count' | 'pinned_bytes' | 'ipns_count';

/** Usage per account per UTC day (migration 12). */
export interface DailyUsageRow {
  /** 'YYYY-MM-DD', UTC. */
  day: string;
  ingress: number;
  egress: number;
  pinnedBytes: number;
  pinnedCount: number;
}

/** Usage counters of the billing period and their daily mirror. */
export interface UsageRepository {
  /** The returned row may be shared with other readers (see read-cache.ts): never mutate it. */
  usageOf(accountId: number): Promise<UsageRow>;
  addUsage(accountId: number, column: UsageColumn, amount: number): Promise<void>;
  resetPeriod(accountId: number, periodStart: number): Promise<void>;
  /**
   * Mirrors a usage counter write into the day's row, in one upsert: adds the ingress and egress increments
   * and copies pinned_bytes and pinned_count from the `usage` row as they are now (after the write).
   */
  mirrorDailyUsage(accountId: number, day: string, ingress: number, egress: number): Promise<void>;
  /** The account's rows from `firstDay` on, oldest first. */
  dailyUsageFrom(accountId: number, firstDay: string): Promise<DailyUsageRow[]>;
  /** The account's last row before `firstDay`: where the pinned values of the days after it come from. */
  dailyUsageBefore(accountId: number, firstDay: string): Promise<DailyUsageRow | null>;
}
