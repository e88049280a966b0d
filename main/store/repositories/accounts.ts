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

/** A partner's user as its list shows it: the account and what it pins. */
export interface PartnerUserListRow {
  uuid: string;
  name: string;
  planId: number;
  createdAt: number;
  pinnedBytes: number;
  pinnedCount: number;
}

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

/** Accounts, partner users and the ledger of balance changes. */
export interface AccountsRepository {
  insertAccount(account: NewAccount): Promise<number>;
  /** The returned row may be shared with other readers (see read-cache.ts): never mutate it. */
  accountById(id: number): Promise<AccountRow | null>;
  accountByUuid(uuid: string): Promise<AccountRow | null>;
  ownerAccount(): Promise<AccountRow | null>;
  partnerUser(partnerId: number, uuid: string): Promise<AccountRow | null>;
  /** The partner's users, newest first (on the accounts_partner index of migration 14). */
  partnerUsersPage(partnerId: number, limit: number, offset: number): Promise<PartnerUserListRow[]>;
  countPartnerUsers(partnerId: number): Promise<number>;
  allAccounts(): Promise<AccountRow[]>;
  setPartnerFlag(id: number, isPartner: boolean): Promise<void>;
  setPlan(id: number, planId: number): Promise<void>;
  setBalance(id: number, balanceCents: number): Promise<void>;
  insertLedger(row: Omit<LedgerRow, 'id'>): Promise<void>;
  ledgerOf(accountId: number): Promise<LedgerRow[]>;
}
