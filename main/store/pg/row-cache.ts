import type { AccountRow } from '../repositories/accounts.js';
import type { CurrentRows } from '../repositories/index.js';
import type { UsageRow } from '../repositories/usage.js';

/**
 * The account and usage rows this instance last read, answered from memory on the hot paths
 * (`store.current`: authentication, the gateway's egress check, stats), as the SQLite store answers its
 * own. Several instances write these rows, so a copy is dropped:
 * - when this instance's own write commits (at once, before the writer goes on);
 * - when the database announces a change of the row (migration 3's triggers: any instance, any SQL),
 *   which arrives a few milliseconds after the commit;
 * - after `maxAgeMs` whatever happens, which bounds what a lost announcement can cost; and all at once
 *   when the listening session was lost and is back.
 * A read that began before a drop never stores its (older) answer: each key has a generation, moved by
 * every drop, and a read stores only if the generation it began with still stands.
 */
export type CachedKind = 'account' | 'usage';

interface Entry<Row> {
  row: Row;
  until: number;
}

export class RowCache implements CurrentRows {
  private readonly accounts = new Map<number, Entry<AccountRow>>();
  private readonly usages = new Map<number, Entry<UsageRow>>();
  private readonly generations = new Map<string, number>();
  private epoch = 0;

  constructor(
    private readonly maxAgeMs: number,
    private readonly nowMs: () => number = Date.now,
  ) {}

  account(id: number): AccountRow | undefined {
    return this.fresh(this.accounts, id);
  }

  usage(accountId: number): UsageRow | undefined {
    return this.fresh(this.usages, accountId);
  }

  blockLocation(): undefined {
    return undefined;
  }

  /** Where a read of the row stands before it begins: pass it to {@link keep} with the answer. */
  generation(kind: CachedKind, id: number): string {
    return `${this.epoch}:${this.generations.get(`${kind}:${id}`) ?? 0}`;
  }

  keepAccount(id: number, generation: string, row: AccountRow | null): void {
    if (row !== null && generation === this.generation('account', id)) this.accounts.set(id, { row, until: this.nowMs() + this.maxAgeMs });
  }

  keepUsage(accountId: number, generation: string, row: UsageRow): void {
    if (generation === this.generation('usage', accountId)) this.usages.set(accountId, { row, until: this.nowMs() + this.maxAgeMs });
  }

  drop(kind: CachedKind, id: number): void {
    const key = `${kind}:${id}`;
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
    (kind === 'account' ? this.accounts : this.usages).delete(id);
  }

  dropAll(): void {
    this.epoch++;
    this.generations.clear();
    this.accounts.clear();
    this.usages.clear();
  }

  private fresh<Row>(entries: Map<number, Entry<Row>>, id: number): Row | undefined {
    const entry = entries.get(id);
    if (entry === undefined) return undefined;
    if (entry.until > this.nowMs()) return entry.row;
    entries.delete(id);
    return undefined;
  }
}
