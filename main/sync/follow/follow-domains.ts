import type { CID } from 'multiformats/cid';
import type { KeyedLock } from '../../base/keyed-lock.js';
import type { LatestRecordDeps } from '../../names/latest-record.js';
import type { NetworkFetcher } from '../../network/network-fetcher.js';
import type { Transaction } from '../../store/repositories/index.js';
import type { ReadBlockstore } from '../../content/read/index.js';
import type { SyncDomains } from '../runner.js';
import type { Trash } from './follow-applier.js';

/** What a followed folder's runner (follow-runner.ts) needs of the other domains. */
export interface FollowDomains {
  store: SyncDomains['store'];
  /** Where the applier reads the version's blocks. */
  blocks: ReadBlockstore;
  /** `online()`: false when the settings say offline; no long-poll is made then either. */
  fetcher: Pick<NetworkFetcher, 'fetchDag' | 'online'>;
  /** How many blocks under `root` are missing here (the pin census); `knownComplete` spares the pin a second walk. */
  census(root: CID, signal?: AbortSignal): Promise<{ bytes: number; missing: number }>;
  knownComplete?(root: CID, bytes: number): void;
  /** What latestRecord needs of the names domain. */
  records: LatestRecordDeps;
  /** On the transaction that stores a batch of fetched blocks: the account's plan takes them as ingress (else throws). */
  chargeIngress(tx: Transaction, accountId: number, bytes: number): Promise<void>;
  movePin: SyncDomains['movePin'];
  holdGc: SyncDomains['holdGc'];
  /** One writer of a followed folder at a time: an update or a discard. */
  writeLock: KeyedLock;
  logger: SyncDomains['logger'];
  clock?: SyncDomains['clock'];
  events?: SyncDomains['events'];
  /** Where removed files go; the system's trash by default. */
  trash?: Trash;
}
