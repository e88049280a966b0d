import type { AccountRow, LedgerRow, NewAccount, PartnerUserListRow } from '../repositories/accounts.js';
import { flag, flagValue, int, intOrNull, orNull, type Int } from '../sql/columns.js';
import { limitOf, ROW_LOCK } from '../sql/dialects.js';
import { exec, queryRow, queryRows, row, statement, steps } from '../sql/query.js';
import { raw, sql } from '../sql/sql.js';

/** Accounts, partner users and the ledger (AccountsRepository). */

interface RawAccount {
  id: Int;
  uuid: string;
  name: string;
  email: string;
  provider: string;
  is_owner: Int;
  is_partner: Int;
  partner_id: Int | null;
  plan_id: Int;
  next_plan_id: Int;
  balance_cents: Int;
  created_at: Int;
}

const ACCOUNT_COLUMNS = raw('id, uuid, name, email, provider, is_owner, is_partner, partner_id, plan_id, next_plan_id, balance_cents, created_at');

function toAccount(raw: RawAccount): AccountRow {
  return {
    id: int(raw.id),
    uuid: raw.uuid,
    name: raw.name,
    email: raw.email,
    provider: raw.provider,
    isOwner: flag(raw.is_owner),
    isPartner: flag(raw.is_partner),
    partnerId: intOrNull(raw.partner_id),
    planId: int(raw.plan_id),
    nextPlanId: int(raw.next_plan_id),
    balanceCents: int(raw.balance_cents),
    createdAt: int(raw.created_at),
  };
}

/** The account and its usage row, together. */
export const insertAccount = steps(
  function* (account: NewAccount) {
    const inserted = yield* row<{ id: Int }>(
      sql`INSERT INTO accounts (uuid, name, email, provider, is_owner, is_partner, partner_id, plan_id, next_plan_id, balance_cents, created_at)
          VALUES (${account.uuid}, ${account.name}, ${account.email}, ${account.provider}, ${flagValue(account.isOwner)}, ${flagValue(account.isPartner)},
            ${account.partnerId}, ${account.planId}, ${account.planId}, ${account.balanceCents}, ${account.createdAt})
          RETURNING id`,
    );
    if (!inserted) throw new Error('INSERT … RETURNING answered no row');
    const id = int(inserted.id);
    yield* exec(sql`INSERT INTO usage (account_id, period_start) VALUES (${id}, ${account.periodStart})`);
    return id;
  },
  { atomic: true },
);

/**
 * Inside a PostgreSQL transaction the row is locked until it ends (ROW_LOCK), as by accountByUuid and
 * partnerUser: the domain reads a balance, then writes balance ± amount, and a second instance's transaction
 * must read the first's. SQLite serves it from its read cache (store/db's binding).
 */
export const accountById = queryRow((id: number) => sql`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = ${id}${ROW_LOCK}`, orNull(toAccount));

export const accountByUuid = queryRow((uuid: string) => sql`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE uuid = ${uuid}${ROW_LOCK}`, orNull(toAccount));

export const ownerAccount = queryRow(() => sql`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE is_owner = 1`, orNull(toAccount));

export const partnerUser = queryRow(
  (partnerId: number, uuid: string) => sql`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE uuid = ${uuid} AND partner_id = ${partnerId}${ROW_LOCK}`,
  orNull(toAccount),
);

interface RawPartnerUser {
  uuid: string;
  name: string;
  plan_id: Int;
  created_at: Int;
  pinned_bytes: Int;
  pinned_count: Int;
}

/** The partner's users, newest first (on the accounts_partner index); a negative limit is none. */
export const partnerUsersPage = queryRows(
  (partnerId: number, limit: number, offset: number) =>
    sql`SELECT a.uuid, a.name, a.plan_id, a.created_at, u.pinned_bytes, u.pinned_count FROM accounts a JOIN usage u ON u.account_id = a.id
        WHERE a.partner_id = ${partnerId} ORDER BY a.created_at DESC, a.id DESC LIMIT ${limitOf(limit)} OFFSET ${Math.max(0, offset)}`,
  (r: RawPartnerUser): PartnerUserListRow => ({
    uuid: r.uuid,
    name: r.name,
    planId: int(r.plan_id),
    createdAt: int(r.created_at),
    pinnedBytes: int(r.pinned_bytes),
    pinnedCount: int(r.pinned_count),
  }),
);

export const countPartnerUsers = queryRow(
  (partnerId: number) => sql`SELECT COUNT(*) AS n FROM accounts WHERE partner_id = ${partnerId}`,
  (raw: { n: Int } | undefined) => int(raw?.n ?? 0),
);

export const allAccounts = queryRows(() => sql`SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY id`, toAccount);

export const setPartnerFlag = statement((id: number, isPartner: boolean) => sql`UPDATE accounts SET is_partner = ${flagValue(isPartner)} WHERE id = ${id}`);

export const setPlan = statement((id: number, planId: number) => sql`UPDATE accounts SET plan_id = ${planId}, next_plan_id = ${planId} WHERE id = ${id}`);

export const setBalance = statement((id: number, balanceCents: number) => sql`UPDATE accounts SET balance_cents = ${balanceCents} WHERE id = ${id}`);

// ---- ledger ----

export const insertLedger = statement(
  (entry: Omit<LedgerRow, 'id'>) =>
    sql`INSERT INTO ledger (account_id, amount_cents, balance_after_cents, kind, subject_account_id, plan_id, created_at)
        VALUES (${entry.accountId}, ${entry.amountCents}, ${entry.balanceAfterCents}, ${entry.kind}, ${entry.subjectAccountId}, ${entry.planId}, ${entry.createdAt})`,
);

interface RawLedger {
  id: Int;
  account_id: Int;
  amount_cents: Int;
  balance_after_cents: Int;
  kind: 'plan_fee' | 'credit';
  subject_account_id: Int | null;
  plan_id: Int | null;
  created_at: Int;
}

export const ledgerOf = queryRows(
  (accountId: number) =>
    sql`SELECT id, account_id, amount_cents, balance_after_cents, kind, subject_account_id, plan_id, created_at FROM ledger WHERE account_id = ${accountId} ORDER BY id`,
  (r: RawLedger): LedgerRow => ({
    id: int(r.id),
    accountId: int(r.account_id),
    amountCents: int(r.amount_cents),
    balanceAfterCents: int(r.balance_after_cents),
    kind: r.kind,
    subjectAccountId: intOrNull(r.subject_account_id),
    planId: intOrNull(r.plan_id),
    createdAt: int(r.created_at),
  }),
);
