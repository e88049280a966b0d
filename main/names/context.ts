import type { CID } from 'multiformats/cid';
import type { Clock } from '../base/clock.js';
import type { ChangePublisher } from '../base/changes.js';
import type { NameEvents } from './name-events.js';
import type { Logger } from '../base/logger.js';
import type { NameRecordSources } from '../network/name-records.js';
import type { SealedBox } from '../base/sealed-box.js';
import type { Store, Transaction } from '../store/repositories/index.js';
import { createTxtLookup, type TxtLookup } from './dnslink.js';
import { createKeyedLock, type KeyedLock } from '../base/keyed-lock.js';
import { RECORD_LIFETIME_MS } from './records.js';
import type { NetworkPublisher } from './network-publisher.js';
import { createNameResolver, type NameResolver } from './resolver.js';

/**
 * Records are republished once less than this is left of their validity: half of the default year, so a
 * server that runs at least once every six months keeps every name resolvable.
 */
export const DEFAULT_REPUBLISH_MARGIN_MS = RECORD_LIFETIME_MS / 2;

/**
 * The plan limit on IPNS names, owned by the accounts domain. Both are called on the names transaction
 * that creates or deletes the row (the handle is passed in), so the counter and the rows never disagree.
 */
export interface IpnsLimits {
  /** Checks the plan's `ipns` limit and adds one to `usage.ipns_count`; rejects with LimitReachedError when full. */
  reserveIpns(tx: Transaction, accountId: number): Promise<void>;
  /** Takes one off `usage.ipns_count`. */
  releaseIpns(tx: Transaction, accountId: number): Promise<void>;
}

/** Pins a CID for the account as pin add does (same limits); used for `pin=true` before the record changes. */
export type PinFirst = (accountId: number, cid: CID) => Promise<void>;

export interface NamesInit {
  /** The metadata store: names and routing records through `store.names`, the limits on a transaction. */
  store: Store;
  /** Seals private keys under the master key (contract section 7). */
  sealedBox: SealedBox;
  clock: Clock;
  limits: IpnsLimits;
  pinFirst?: PinFirst;
  /** `--dns-resolver HOST:PORT`; undefined = the system resolver. Ignored when `txt` is given. */
  dnsResolver?: string;
  txt?: TxtLookup;
  dnsCacheSeconds?: number;
  /** Validity of the records signed here; default one year (contract section 7). Tests shorten it. */
  recordLifetimeMs?: number;
  /** Republish a record once its validity has less than this left; below the lifetime. */
  republishMarginMs?: number;
  /** The live event stream (the server). */
  events?: NameEvents;
  /** Other instances on the same database, whose resolvers must forget a name changed here (`--db`). */
  changes?: ChangePublisher;
  /** Puts the records of public names on the IPFS network (network-publisher.ts); absent, none is put. */
  network?: NetworkRecords;
  /** Where records of names held elsewhere are looked up (network/name-records.ts); absent, the store only. */
  networkRecords?: Pick<NameRecordSources, 'records'>;
  /** Tells of records from the network that were refused. */
  logger?: Logger;
}

/** What the names domain tells the network publisher. */
export type NetworkRecords = Pick<NetworkPublisher, 'recordChanged' | 'withdrawn'>;

export interface NamesContext {
  store: Store;
  sealedBox: SealedBox;
  clock: Clock;
  limits: IpnsLimits;
  pinFirst: PinFirst | undefined;
  resolver: NameResolver;
  /** Serializes publish/republish/rm per name. */
  nameLock: KeyedLock;
  recordLifetimeMs: number;
  republishMarginMs: number;
  events: NameEvents | undefined;
  changes: ChangePublisher | undefined;
  network: NetworkRecords | undefined;
  /** Where records are asked before a public name is published (seen-records.ts); absent, nowhere. */
  networkRecords: Pick<NameRecordSources, 'records'> | undefined;
}

/**
 * Tells the other instances on the database that `name`'s stored record changed (published, replaced or
 * removed), once the change has committed, so that their resolvers read it again.
 */
export function announceNameChange(ctx: Pick<NamesContext, 'changes'>, name: string): void {
  ctx.changes?.published({ kind: 'ipns-name', key: name });
}

export function createNamesContext(init: NamesInit): NamesContext {
  const txt = init.txt ?? createTxtLookup(init.dnsResolver);
  const recordLifetimeMs = init.recordLifetimeMs ?? RECORD_LIFETIME_MS;
  const republishMarginMs = init.republishMarginMs ?? Math.min(DEFAULT_REPUBLISH_MARGIN_MS, recordLifetimeMs / 2);
  // A fresh record must not be due at once (its end is stored to the second), or republishing would never stop.
  if (!(republishMarginMs > 0) || !(recordLifetimeMs - republishMarginMs >= 1000)) {
    throw new Error(`IPNS republish margin (${republishMarginMs} ms) must be above 0 and at least a second below the record lifetime (${recordLifetimeMs} ms)`);
  }
  const nameLock = createKeyedLock();
  return {
    store: init.store,
    sealedBox: init.sealedBox,
    clock: init.clock,
    limits: init.limits,
    pinFirst: init.pinFirst,
    resolver: createNameResolver({
      names: init.store.names,
      clock: init.clock,
      txt,
      dnsCacheSeconds: init.dnsCacheSeconds,
      nameLock,
      ...(init.networkRecords ? { network: init.networkRecords } : {}),
      ...(init.logger ? { logger: init.logger } : {}),
    }),
    nameLock,
    recordLifetimeMs,
    republishMarginMs,
    events: init.events,
    changes: init.changes,
    network: init.network,
    networkRecords: init.networkRecords,
  };
}
