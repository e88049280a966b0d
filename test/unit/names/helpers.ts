import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LimitReachedError } from '../../../main/base/errors.js';
import { createSealedBox } from '../../../main/base/sealed-box.js';
import type { Clock } from '../../../main/base/clock.js';
import { openDatabase, type Db } from '../../../main/store/db/database.js';
import { sqliteStore } from '../../../main/store/db/sqlite-store.js';
import type { Transaction } from '../../../main/store/repositories/index.js';
import { createNamesContext, type NamesContext, type NamesInit, type PinFirst } from '../../../main/names/context.js';
import type { TxtLookup } from '../../../main/names/dnslink.js';
import { SQLITE_QUERIES } from '../../../main/store/db/queries.js';
import { manualClock } from '../../helpers/manual-clock.js';

const { insertAccount } = SQLITE_QUERIES.accounts;

/** Where a names test's manual clock starts when the test does not say. */
export const CLOCK_START_MS = Date.UTC(2026, 0, 1);

export interface TestDb {
  dir: string;
  path: string;
  db: Db;
  cleanup(): void;
}

export function tempDb(): TestDb {
  const dir = mkdtempSync(join(tmpdir(), 'pinfold-names-'));
  const path = join(dir, 'pinfold.db');
  const db = openDatabase(path);
  return {
    dir,
    path,
    db,
    cleanup() {
      if (db.open) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let accountSeq = 0;
export function addAccount(db: Db): number {
  accountSeq += 1;
  return insertAccount(db, {
    uuid: `00000000-0000-4000-8000-${String(accountSeq).padStart(12, '0')}`,
    name: `user${accountSeq}`,
    email: `user${accountSeq}@example.org`,
    provider: 'test',
    isOwner: false,
    isPartner: false,
    partnerId: null,
    planId: 1,
    balanceCents: 0,
    createdAt: 1_700_000_000,
    periodStart: 1_700_000_000,
  });
}

/** Stand-in for the accounts domain's limit: the real `usage.ipns_count` column and a fixed plan limit. */
export function usageLimits(limit: number) {
  return {
    async reserveIpns(tx: Transaction, accountId: number) {
      if ((await tx.usage.usageOf(accountId)).ipnsCount + 1 > limit) throw new LimitReachedError('ipns');
      await tx.usage.addUsage(accountId, 'ipns_count', 1);
    },
    async releaseIpns(tx: Transaction, accountId: number) {
      await tx.usage.addUsage(accountId, 'ipns_count', -1);
    },
  };
}

export const MASTER_KEY = Buffer.alloc(32, 7);

export function namesContext(
  db: Db,
  options: {
    clock?: Clock;
    limit?: number;
    txt?: TxtLookup;
    pinFirst?: PinFirst;
    recordLifetimeMs?: number;
    republishMarginMs?: number;
    network?: NamesInit['network'];
    networkRecords?: NamesInit['networkRecords'];
  } = {},
): NamesContext {
  return createNamesContext({
    store: sqliteStore(db),
    sealedBox: createSealedBox(MASTER_KEY),
    clock: options.clock ?? manualClock(CLOCK_START_MS),
    limits: usageLimits(options.limit ?? 1000),
    pinFirst: options.pinFirst,
    txt: options.txt ?? (async () => null),
    dnsCacheSeconds: 0,
    recordLifetimeMs: options.recordLifetimeMs,
    republishMarginMs: options.republishMarginMs,
    network: options.network,
    networkRecords: options.networkRecords,
  });
}

// ---- DNS ----

export { fixtureDnsLinks, parseDnsLinkYaml, startDnsServer, type TestDnsServer } from '../../helpers/dns-server.js';
