import { stmt, type Db } from './database.js';
import { cachedRead } from './read-cache.js';

/** Row mappers and typed statements for accounts, access keys, usage and the ledger. */

export interface AccountRow {
  id: number;
  uuid: string;
  name: string;
  email: string;
  provider: string;
  isOwner: boolean;
  isPartner: boolean;
  partnerId: number | null;
  planId: number;
  nextPlanId: number;
  balanceCents: number;
  createdAt: number;
}

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

export interface NewAccount {
  uuid: string;
  name: string;
  email: string;
  provider: string;
  isOwner: boolean;
  isPartner: boolean;
  partnerId: number | null;
  planId: number;
  balanceCents: number;
  createdAt: number;
  periodStart: number;
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

/** A partner's user as its list shows it: the account and what it pins. */
export interface PartnerUserListRow {
  uuid: string;
  name: string;
  planId: number;
  createdAt: number;
  pinnedBytes: number;
  pinnedCount: number;
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

// ---- access keys ----

export interface AccessKeyRow {
  accessKey: string;
  accountId: number;
  name: string;
  permissions: string[];
  secretSealed: Buffer;
  createdAt: number;
  /** Unix second a session key stops working; null for an ordinary key (migration 11). */
  expiresAt: number | null;
}

interface RawKey {
  access_key: string;
  account_id: number;
  name: string;
  permissions: string;
  secret_sealed: Buffer;
  created_at: number;
  expires_at: number | null;
}

function toKey(raw: RawKey): AccessKeyRow {
  return {
    accessKey: raw.access_key,
    accountId: raw.account_id,
    name: raw.name,
    permissions: raw.permissions === '' ? [] : raw.permissions.split(','),
    secretSealed: raw.secret_sealed,
    createdAt: raw.created_at,
    expiresAt: raw.expires_at,
  };
}

export function insertAccessKey(db: Db, key: AccessKeyRow): void {
  stmt(db, 'INSERT INTO access_keys (access_key, account_id, name, permissions, secret_sealed, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    key.accessKey,
    key.accountId,
    key.name,
    key.permissions.join(','),
    key.secretSealed,
    key.createdAt,
    key.expiresAt,
  );
}

export function accessKeyById(db: Db, accessKey: string): AccessKeyRow | null {
  const raw = stmt(db, 'SELECT * FROM access_keys WHERE access_key = ?').get(accessKey) as RawKey | undefined;
  return raw ? toKey(raw) : null;
}

export function accessKeyByName(db: Db, accountId: number, name: string): AccessKeyRow | null {
  const raw = stmt(db, 'SELECT * FROM access_keys WHERE account_id = ? AND name = ?').get(accountId, name) as RawKey | undefined;
  return raw ? toKey(raw) : null;
}

export function accessKeysOf(db: Db, accountId: number): AccessKeyRow[] {
  return (stmt(db, 'SELECT * FROM access_keys WHERE account_id = ? ORDER BY created_at DESC, rowid DESC').all(accountId) as RawKey[]).map(toKey);
}

export function deleteAccessKey(db: Db, accessKey: string): void {
  stmt(db, 'DELETE FROM access_keys WHERE access_key = ?').run(accessKey);
}

/** Session keys whose expiry has come (on the partial index of migration 11). */
export function expiredSessionKeys(db: Db, nowSeconds: number): AccessKeyRow[] {
  return (stmt(db, 'SELECT * FROM access_keys WHERE expires_at IS NOT NULL AND expires_at <= ?').all(nowSeconds) as RawKey[]).map(toKey);
}

// ---- usage ----

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

interface RawUsage {
  account_id: number;
  period_start: number;
  ingress: number;
  egress: number;
  pinned_count: number;
  pinned_bytes: number;
  ipns_count: number;
}

/** The returned row may be shared with other readers (see read-cache.ts): never mutate it. */
export function usageOf(db: Db, accountId: number): UsageRow {
  return cachedRead(db, `usage:${accountId}`, () => readUsage(db, accountId));
}

function readUsage(db: Db, accountId: number): UsageRow {
  const raw = stmt(db, 'SELECT * FROM usage WHERE account_id = ?').get(accountId) as RawUsage | undefined;
  if (!raw) throw new Error(`usage row missing for account ${accountId}`);
  return {
    accountId: raw.account_id,
    periodStart: raw.period_start,
    ingress: raw.ingress,
    egress: raw.egress,
    pinnedCount: raw.pinned_count,
    pinnedBytes: raw.pinned_bytes,
    ipnsCount: raw.ipns_count,
  };
}

const ADD_STATEMENTS: Record<UsageColumn, string> = {
  ingress: 'UPDATE usage SET ingress = ingress + ? WHERE account_id = ?',
  egress: 'UPDATE usage SET egress = egress + ? WHERE account_id = ?',
  pinned_count: 'UPDATE usage SET pinned_count = pinned_count + ? WHERE account_id = ?',
  pinned_bytes: 'UPDATE usage SET pinned_bytes = pinned_bytes + ? WHERE account_id = ?',
  ipns_count: 'UPDATE usage SET ipns_count = ipns_count + ? WHERE account_id = ?',
};

export function addUsage(db: Db, accountId: number, column: UsageColumn, amount: number): void {
  stmt(db, ADD_STATEMENTS[column]).run(amount, accountId);
}

export function resetPeriod(db: Db, accountId: number, periodStart: number): void {
  stmt(db, 'UPDATE usage SET period_start = ?, ingress = 0, egress = 0 WHERE account_id = ?').run(periodStart, accountId);
}

// ---- ledger ----

export interface LedgerRow {
  id: number;
  accountId: number;
  amountCents: number;
  balanceAfterCents: number;
  kind: 'plan_fee' | 'credit';
  subjectAccountId: number | null;
  planId: number | null;
  createdAt: number;
}

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
