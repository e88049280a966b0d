import type { Clock } from '../base/clock.js';
import type { SealedBox } from '../base/sealed-box.js';
import type { Db } from '../store/db/database.js';
import { createTxtLookup, type TxtLookup } from './dnslink.js';
import { createKeyedLock, type KeyedLock } from './keyed-lock.js';
import { createNameResolver, type NameResolver } from './resolver.js';

/**
 * The plan limit on IPNS names, owned by the accounts domain. Both are called inside the names transaction
 * that creates or deletes the row, so the counter and the rows never disagree.
 */
export interface IpnsLimits {
  /** Checks the plan's `ipns` limit and adds one to `usage.ipns_count`; throws LimitReachedError when full. */
  reserveIpns(accountId: number): void;
  /** Takes one off `usage.ipns_count`. */
  releaseIpns(accountId: number): void;
}

/** Pins a CID for the account as pin add does (same limits); used for `pin=true` before the record changes. */
export type PinFirst = (accountId: number, cid: string) => Promise<void>;

export interface NamesInit {
  db: Db;
  /** Seals private keys under the master key (contract section 7). */
  sealedBox: SealedBox;
  clock: Clock;
  limits: IpnsLimits;
  pinFirst?: PinFirst;
  /** `--dns-resolver HOST:PORT`; undefined = the system resolver. Ignored when `txt` is given. */
  dnsResolver?: string;
  txt?: TxtLookup;
  dnsCacheSeconds?: number;
}

export interface NamesContext {
  db: Db;
  sealedBox: SealedBox;
  clock: Clock;
  limits: IpnsLimits;
  pinFirst: PinFirst | undefined;
  resolver: NameResolver;
  /** Serializes publish/rm per name. */
  nameLock: KeyedLock;
}

export function createNamesContext(init: NamesInit): NamesContext {
  const txt = init.txt ?? createTxtLookup(init.dnsResolver);
  return {
    db: init.db,
    sealedBox: init.sealedBox,
    clock: init.clock,
    limits: init.limits,
    pinFirst: init.pinFirst,
    resolver: createNameResolver({ db: init.db, clock: init.clock, txt, dnsCacheSeconds: init.dnsCacheSeconds }),
    nameLock: createKeyedLock(),
  };
}
