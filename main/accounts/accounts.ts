import { randomUUID } from 'node:crypto';
import { BadInputError, ConflictError, NotFoundError } from '../base/errors.js';
import { unixSeconds } from '../base/clock.js';
import { UniqueViolation, type Repositories } from '../store/repositories/index.js';
import type { AccountRow } from '../store/repositories/accounts.js';
import { periodStartOf } from './billing-period.js';
import type { AccountsContext } from './context.js';
import { FREE_PLAN_ID, LOCAL_PLAN } from './plans.js';

export type { AccountRow } from '../store/repositories/accounts.js';

const OWNER_START_BALANCE_CENTS = 100_000;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

export function findOwner(ctx: AccountsContext): Promise<AccountRow | null> {
  return ctx.store.accounts.ownerAccount();
}

/**
 * The owner: a qualified partner on the unlimited Local plan, starting at "1000.00". `repos` is a caller's
 * transaction when the owner must land with other writes (a shared database records who made it).
 */
export async function createOwner(ctx: AccountsContext, repos: Repositories = ctx.store): Promise<AccountRow> {
  const now = unixSeconds(ctx.clock);
  const id = await repos.accounts.insertAccount({
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
  const owner = await repos.accounts.ownerAccount();
  if (!owner || owner.id !== id) throw new Error('owner account was not created');
  return owner;
}

export interface NewUser {
  uuid: string;
  name: string;
  email: string;
}

export async function createPartnerUser(ctx: AccountsContext, partner: AccountRow, user: NewUser): Promise<AccountRow> {
  const now = unixSeconds(ctx.clock);
  try {
    await ctx.store.accounts.insertAccount({
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
    if (error instanceof UniqueViolation) throw new ConflictError(`uuid ${user.uuid} is already taken`);
    throw error;
  }
  const created = await ctx.store.accounts.accountByUuid(user.uuid);
  if (!created) throw new Error('created account not found');
  // The new account's stats exist now: its partner's window lists it (the event stream tells the partner).
  ctx.events?.usageChanged(created.id);
  return created;
}

export function listAccounts(ctx: AccountsContext): Promise<AccountRow[]> {
  return ctx.store.accounts.allAccounts();
}

export async function requireAccountByUuid(tx: Repositories, uuid: string): Promise<AccountRow> {
  const account = await tx.accounts.accountByUuid(uuid);
  if (!account) throw new NotFoundError(`no account with uuid ${uuid}`);
  return account;
}

export async function setPartner(ctx: AccountsContext, uuid: string, isPartner: boolean): Promise<AccountRow> {
  return ctx.store.transaction(async (tx) => {
    const account = await requireAccountByUuid(tx, uuid);
    await tx.accounts.setPartnerFlag(account.id, isPartner);
    return requireAccountByUuid(tx, uuid);
  });
}

/** Adds to a balance and writes the ledger row, together. */
export async function credit(ctx: AccountsContext, uuid: string, cents: number): Promise<AccountRow> {
  if (!Number.isSafeInteger(cents) || cents <= 0) throw new BadInputError('amount must be positive');
  return ctx.store.transaction(async (tx) => {
    const account = await requireAccountByUuid(tx, uuid);
    const balance = account.balanceCents + cents;
    await tx.accounts.setBalance(account.id, balance);
    await tx.accounts.insertLedger({
      accountId: account.id,
      amountCents: cents,
      balanceAfterCents: balance,
      kind: 'credit',
      subjectAccountId: null,
      planId: null,
      createdAt: unixSeconds(ctx.clock),
    });
    return requireAccountByUuid(tx, uuid);
  });
}
