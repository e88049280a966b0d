import { randomUUID } from 'node:crypto';
import { BadInputError, ConflictError, NotFoundError } from '../base/errors.js';
import { unixSeconds } from '../base/clock.js';
import { inTransaction, isUniqueViolation } from '../store/db/database.js';
import {
  accountByUuid,
  allAccounts,
  insertAccount,
  insertLedger,
  ownerAccount,
  setBalance,
  setPartnerFlag,
  type AccountRow,
} from '../store/db/accounts-queries.js';
import { periodStartOf } from './billing-period.js';
import type { AccountsContext } from './context.js';
import { FREE_PLAN_ID, LOCAL_PLAN } from './plans.js';

export type { AccountRow } from '../store/db/accounts-queries.js';

const OWNER_START_BALANCE_CENTS = 100_000;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

export function findOwner(ctx: AccountsContext): AccountRow | null {
  return ownerAccount(ctx.db);
}

/** The owner: a qualified partner on the unlimited Local plan, starting at "1000.00". */
export function createOwner(ctx: AccountsContext): AccountRow {
  const now = unixSeconds(ctx.clock);
  const id = insertAccount(ctx.db, {
    uuid: randomUUID(),
    name: 'owner',
    email: '',
    provider: 'local',
    isOwner: true,
    isPartner: true,
    partnerId: null,
    planId: LOCAL_PLAN.id,
    balanceCents: OWNER_START_BALANCE_CENTS,
    createdAt: now,
    periodStart: periodStartOf(now),
  });
  const owner = findOwner(ctx);
  if (!owner || owner.id !== id) throw new Error('owner account was not created');
  return owner;
}

export interface NewUser {
  uuid: string;
  name: string;
  email: string;
}

export function createPartnerUser(ctx: AccountsContext, partner: AccountRow, user: NewUser): AccountRow {
  const now = unixSeconds(ctx.clock);
  try {
    insertAccount(ctx.db, {
      uuid: user.uuid,
      name: user.name,
      email: user.email,
      provider: 'partner',
      isOwner: false,
      isPartner: false,
      partnerId: partner.id,
      planId: FREE_PLAN_ID,
      balanceCents: 0,
      createdAt: now,
      periodStart: periodStartOf(now),
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(`uuid ${user.uuid} is already taken`);
    throw error;
  }
  const created = accountByUuid(ctx.db, user.uuid);
  if (!created) throw new Error('created account not found');
  // The new account's stats exist now: its partner's window lists it (the event stream tells the partner).
  ctx.events?.usageChanged(created.id);
  return created;
}

export function listAccounts(ctx: AccountsContext): AccountRow[] {
  return allAccounts(ctx.db);
}

export function requireAccountByUuid(ctx: AccountsContext, uuid: string): AccountRow {
  const account = accountByUuid(ctx.db, uuid);
  if (!account) throw new NotFoundError(`no account with uuid ${uuid}`);
  return account;
}

export function setPartner(ctx: AccountsContext, uuid: string, isPartner: boolean): AccountRow {
  const account = requireAccountByUuid(ctx, uuid);
  setPartnerFlag(ctx.db, account.id, isPartner);
  return requireAccountByUuid(ctx, uuid);
}

/** Adds to a balance and writes the ledger row, together. */
export function credit(ctx: AccountsContext, uuid: string, cents: number): AccountRow {
  if (!Number.isSafeInteger(cents) || cents <= 0) throw new BadInputError('amount must be positive');
  return inTransaction(ctx.db, () => {
    const account = requireAccountByUuid(ctx, uuid);
    const balance = account.balanceCents + cents;
    setBalance(ctx.db, account.id, balance);
    insertLedger(ctx.db, {
      accountId: account.id,
      amountCents: cents,
      balanceAfterCents: balance,
      kind: 'credit',
      subjectAccountId: null,
      planId: null,
      createdAt: unixSeconds(ctx.clock),
    });
    return requireAccountByUuid(ctx, uuid);
  });
}
