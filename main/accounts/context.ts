import type { Clock } from '../base/clock.js';
import type { ChangePublisher } from '../base/changes.js';
import type { AccountEvents } from './account-events.js';
import type { SealedBox } from '../base/sealed-box.js';
import type { Store } from '../store/repositories/index.js';
import type { EgressMeter } from './egress-meter.js';
import type { KeyCache } from './key-cache.js';
import type { PlanCatalog } from './plans.js';

/** What the accounts domain needs, passed in by the composition root. */
export interface AccountsContext {
  /** The metadata: every domain reaches it through this store's repositories (or a transaction of it). */
  store: Store;
  plans: PlanCatalog;
  box: SealedBox;
  clock: Clock;
  keyCache: KeyCache;
  /** Egress bytes not yet written to the usage table (the server's gateway); absent in the CLI. */
  egressMeter?: EgressMeter;
  /** The live event stream's usage and key notices (the server); absent in the CLI. */
  events?: AccountEvents;
  /** Other instances on the same database, whose key caches must drop a key deleted here (`--db`). */
  changes?: ChangePublisher;
}
