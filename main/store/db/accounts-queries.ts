import { stmt, type Db } from './database.js';
import { cachedRead } from './read-cache.js';
import type { AccountRow, NewAccount, PartnerUserListRow, LedgerRow } from '../repositories/accounts.js';

/** Row mappers and typed statements for accounts, partner users and the ledger. */

interface RawAccount {
  id: number;
  uuid: string;
  name: string;
  email: string;
  provider: string;
  is_owner: number;
  is_partner: number;
  partner_id: number | null;
  plan_id: number;
  next_plan_id: number;
  balance_cents: number;
  created_at: number;
}

function toAccount(raw: RawAccount | undefined): AccountRow | null {
  if (!raw) return null;
  return {
    id: raw.id,
    uuid: raw.uuid,
    name: raw.name,
    email: raw.email,
    provider: raw.provider,
    isOwner: raw.is_owner === 1,
    isPartner: raw.is_partner === 1,
    partnerId: raw.partner_id,
    planId: raw.plan_id,
    nextPlanId: raw.next_plan_id,
    balanceCents: raw.balance_cents,
    createdAt: raw.created_at,
  };
}

export function insertAccount(db: Db, account: NewAccount): number {
  const result = stmt(
    db,
    `INSERT INTO accounts (uuid, name, email, provider, is_owner, is_partner, partner_id, plan_id, next_plan_id, balance_cents, created_at)
     VALUES (@uuid, @name, @email, @provider, @isOwner, @isPartner, @partnerId, @planId, @planId, @balanceCents, @createdAt)`,
  ).run({ ...account, isOwner: account.isOwner ? 1 : 0, isPartner: account.isPartner ? 1 : 0 });
  const id = Number(result.lastInsertRowid);
  stmt(db, 'INSERT INTO usage (account_id, period_start) VALUES (?, ?)').run(id, account.periodStart);
  return id;
}

/** The returned row may be shared with other readers (see read-cache.ts): never mutate it. */
export function accountById(db: Db, id: number): AccountRow | null {
  return cachedRead(db, `account:${id}`, () => toAccount(stmt(db, 'SELECT * FROM accounts WHERE id = ?').get(id) as RawAccount | undefined));
}

export function accountByUuid(db: Db, uuid: string): AccountRow | null {
  return toAccount(stmt(db, 'SELECT * FROM accounts WHERE uuid = ?').get(uuid) as RawAccount | undefined);
}

export function ownerAccount(db: Db): AccountRow | null {
  return toAccount(stmt(db, 'SELECT * FROM accounts WHERE is_owner = 1').get() as RawAccount | undefined);
}

export function partnerUser(db: Db, partnerId: number, uuid: string): AccountRow | null {
  return toAccount(stmt(db, 'SELECT * FROM accounts WHERE uuid = ? AND partner_id = ?').get(uuid, partnerId) as RawAccount | undefined);
}

/** The partner's users, newest first (on the accounts_partner index of migration 14). */
export function partnerUsersPage(db: Db, partnerId: number, limit: number, offset: number): PartnerUserListRow[] {
  const rows = stmt(
    db,
    `SELECT a.uuid, a.name, a.plan_id, a.created_at, u.pinned_bytes, u.pinned_count FROM accounts a JOIN usage u ON u.account_id = a.id
     WHERE a.partner_id = ? ORDER BY a.created_at DESC, a.id DESC LIMIT ? OFFSET ?`,
  ).all(partnerId, limit, offset) as { uuid: string; name: string; plan_id: number; created_at: number; pinned_bytes: number; pinned_count: number }[];
  return rows.map((r) => ({
    uuid: r.uuid,
    name: r.name,
    planId: r.plan_id,
    createdAt: r.created_at,
    pinnedBytes: r.pinned_bytes,
    pinnedCount: r.pinned_count,
  }));
}

export function countPartnerUsers(db: Db, partnerId: number): number {
  return (stmt(db, 'SELECT COUNT(*) AS n FROM accounts WHERE partner_id = ?').get(partnerId) as { n: number }).n;
}

export function allAccounts(db: Db): AccountRow[] {
  return (stmt(db, 'SELECT * FROM accounts ORDER BY id').all() as RawAccount[]).map((raw) => toAccount(raw) as AccountRow);
}

export function setPartnerFlag(db: Db, id: number, isPartner: boolean): void {
  stmt(db, 'UPDATE accounts SET is_partner = ? WHERE id = ?').run(isPartner ? 1 : 0, id);
}

export function setPlan(db: Db, id: number, planId: number): void {
  stmt(db, 'UPDATE accounts SET plan_id = ?, next_plan_id = ? WHERE id = ?').run(planId, planId, id);
}

export function setBalance(db: Db, id: number, balanceCents: number): void {
  stmt(db, 'UPDATE accounts SET balance_cents = ? WHERE id = ?').run(balanceCents, id);
}

// ---- ledger ----

export function insertLedger(db: Db, row: Omit<LedgerRow, 'id'>): void {
  stmt(
    db,
    `INSERT INTO ledger (account_id, amount_cents, balance_after_cents, kind, subject_account_id, plan_id, created_at)
     VALUES (@accountId, @amountCents, @balanceAfterCents, @kind, @subjectAccountId, @planId, @createdAt)`,
  ).run(row);
}

export function ledgerOf(db: Db, accountId: number): LedgerRow[] {
  const rows = stmt(db, 'SELECT * FROM ledger WHERE account_id = ? ORDER BY id').all(accountId) as {
    id: number;
    account_id: number;
    amount_cents: number;
    balance_after_cents: number;
    kind: 'plan_fee' | 'credit';
    subject_account_id: number | null;
    plan_id: number | null;
    created_at: number;
  }[];
  return rows.map((r) => ({
    id: r.id,
    accountId: r.account_id,
    amountCents: r.amount_cents,
    balanceAfterCents: r.balance_after_cents,
    kind: r.kind,
    subjectAccountId: r.subject_account_id,
    planId: r.plan_id,
    createdAt: r.created_at,
  }));
}
