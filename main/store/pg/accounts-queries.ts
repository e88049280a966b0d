import type { AccountRow, LedgerRow, NewAccount, PartnerUserListRow } from '../repositories/accounts.js';
import { atomically, int, row, rows, type Queryable } from './queryable.js';
import { lockInTransaction } from './row-lock.js';

/** Accounts, partner users and the ledger: the PostgreSQL side of AccountsRepository (store/db/accounts-queries.ts). */

/** BIGINT columns come back as text. */
interface RawAccount {
  id: string;
  uuid: string;
  name: string;
  email: string;
  provider: string;
  is_owner: number;
  is_partner: number;
  partner_id: string | null;
  plan_id: string;
  next_plan_id: string;
  balance_cents: string;
  created_at: string;
}

const ACCOUNT_COLUMNS = 'id, uuid, name, email, provider, is_owner, is_partner, partner_id, plan_id, next_plan_id, balance_cents, created_at';

function toAccount(raw: RawAccount | null): AccountRow | null {
  if (!raw) return null;
  return {
    id: int(raw.id),
    uuid: raw.uuid,
    name: raw.name,
    email: raw.email,
    provider: raw.provider,
    isOwner: raw.is_owner === 1,
    isPartner: raw.is_partner === 1,
    partnerId: raw.partner_id === null ? null : int(raw.partner_id),
    planId: int(raw.plan_id),
    nextPlanId: int(raw.next_plan_id),
    balanceCents: int(raw.balance_cents),
    createdAt: int(raw.created_at),
  };
}

/** The account and its usage row, together (SQLite wrote them one after the other on its single writer). */
export async function insertAccount(q: Queryable, account: NewAccount): Promise<number> {
  return atomically(q, async (c) => {
    const inserted = await row<{ id: string }>(
      c,
      `INSERT INTO accounts (uuid, name, email, provider, is_owner, is_partner, partner_id, plan_id, next_plan_id, balance_cents, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $10) RETURNING id`,
      [
        account.uuid,
        account.name,
        account.email,
        account.provider,
        account.isOwner ? 1 : 0,
        account.isPartner ? 1 : 0,
        account.partnerId,
        account.planId,
        account.balanceCents,
        account.createdAt,
      ],
    );
    if (!inserted) throw new Error('INSERT … RETURNING answered no row');
    const id = int(inserted.id);
    await c.query('INSERT INTO usage (account_id, period_start) VALUES ($1, $2)', [id, account.periodStart]);
    return id;
  });
}

/**
 * Read each time (SQLite serves it from its read cache; several instances share this database). Inside a
 * transaction the row is locked until it ends (row-lock.ts), as by accountByUuid and partnerUser: the domain
 * reads a balance, then writes balance ± amount, and a second instance's transaction must read the first's.
 */
export async function accountById(q: Queryable, id: number): Promise<AccountRow | null> {
  return toAccount(await row<RawAccount>(q, `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = $1${lockInTransaction(q)}`, [id]));
}

export async function accountByUuid(q: Queryable, uuid: string): Promise<AccountRow | null> {
  return toAccount(await row<RawAccount>(q, `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE uuid = $1${lockInTransaction(q)}`, [uuid]));
}

export async function ownerAccount(q: Queryable): Promise<AccountRow | null> {
  return toAccount(await row<RawAccount>(q, `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE is_owner = 1`));
}

export async function partnerUser(q: Queryable, partnerId: number, uuid: string): Promise<AccountRow | null> {
  return toAccount(
    await row<RawAccount>(q, `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE uuid = $1 AND partner_id = $2${lockInTransaction(q)}`, [uuid, partnerId]),
  );
}

/** The partner's users, newest first (on the accounts_partner index). */
export async function partnerUsersPage(q: Queryable, partnerId: number, limit: number, offset: number): Promise<PartnerUserListRow[]> {
  const found = await rows<{ uuid: string; name: string; plan_id: string; created_at: string; pinned_bytes: string; pinned_count: string }>(
    q,
    `SELECT a.uuid, a.name, a.plan_id, a.created_at, u.pinned_bytes, u.pinned_count FROM accounts a JOIN usage u ON u.account_id = a.id
     WHERE a.partner_id = $1 ORDER BY a.created_at DESC, a.id DESC LIMIT $2 OFFSET $3`,
    [partnerId, limitOf(limit), Math.max(0, offset)],
  );
  return found.map((r) => ({
    uuid: r.uuid,
    name: r.name,
    planId: int(r.plan_id),
    createdAt: int(r.created_at),
    pinnedBytes: int(r.pinned_bytes),
    pinnedCount: int(r.pinned_count),
  }));
}

/** SQLite reads a negative LIMIT as no limit (and a negative OFFSET as 0); PostgreSQL refuses both, and reads a NULL LIMIT as none. */
function limitOf(limit: number): number | null {
  return limit < 0 ? null : limit;
}

export async function countPartnerUsers(q: Queryable, partnerId: number): Promise<number> {
  const counted = await row<{ n: string }>(q, 'SELECT COUNT(*) AS n FROM accounts WHERE partner_id = $1', [partnerId]);
  return int(counted?.n ?? 0);
}

export async function allAccounts(q: Queryable): Promise<AccountRow[]> {
  return (await rows<RawAccount>(q, `SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY id`)).map((raw) => toAccount(raw) as AccountRow);
}

export async function setPartnerFlag(q: Queryable, id: number, isPartner: boolean): Promise<void> {
  await q.query('UPDATE accounts SET is_partner = $1 WHERE id = $2', [isPartner ? 1 : 0, id]);
}

export async function setPlan(q: Queryable, id: number, planId: number): Promise<void> {
  await q.query('UPDATE accounts SET plan_id = $1, next_plan_id = $1 WHERE id = $2', [planId, id]);
}

export async function setBalance(q: Queryable, id: number, balanceCents: number): Promise<void> {
  await q.query('UPDATE accounts SET balance_cents = $1 WHERE id = $2', [balanceCents, id]);
}

// ---- ledger ----

export async function insertLedger(q: Queryable, entry: Omit<LedgerRow, 'id'>): Promise<void> {
  await q.query(
    `INSERT INTO ledger (account_id, amount_cents, balance_after_cents, kind, subject_account_id, plan_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [entry.accountId, entry.amountCents, entry.balanceAfterCents, entry.kind, entry.subjectAccountId, entry.planId, entry.createdAt],
  );
}

export async function ledgerOf(q: Queryable, accountId: number): Promise<LedgerRow[]> {
  const found = await rows<{
    id: string;
    account_id: string;
    amount_cents: string;
    balance_after_cents: string;
    kind: 'plan_fee' | 'credit';
    subject_account_id: string | null;
    plan_id: string | null;
    created_at: string;
  }>(
    q,
    'SELECT id, account_id, amount_cents, balance_after_cents, kind, subject_account_id, plan_id, created_at FROM ledger WHERE account_id = $1 ORDER BY id',
    [accountId],
  );
  return found.map((r) => ({
    id: int(r.id),
    accountId: int(r.account_id),
    amountCents: int(r.amount_cents),
    balanceAfterCents: int(r.balance_after_cents),
    kind: r.kind,
    subjectAccountId: r.subject_account_id === null ? null : int(r.subject_account_id),
    planId: r.plan_id === null ? null : int(r.plan_id),
    createdAt: int(r.created_at),
  }));
}
