import type { NewAccount } from '../../main/store/repositories/accounts.js';
import { repository, type EngineDatabase } from './repository-engines.js';

/** An account for repository conformance tests; `overrides` picks what a case cares about. */
export function newAccount(overrides: Partial<NewAccount> = {}): NewAccount {
  return {
    uuid: 'u-1',
    name: 'Ada',
    email: 'ada@example.org',
    provider: 'local',
    isOwner: false,
    isPartner: false,
    partnerId: null,
    planId: 1,
    balanceCents: 0,
    createdAt: 1_700_000_000,
    periodStart: 1_699_999_000,
    ...overrides,
  };
}

/** Inserts an account (and its usage row) through the engine's accounts repository; answers its id. */
export function insertTestAccount(database: EngineDatabase, overrides: Partial<NewAccount> = {}): Promise<number> {
  return repository(database, 'accounts').insertAccount(newAccount(overrides));
}
