import type { CID } from 'multiformats/cid';
import type { PinFetchProgress } from '../../shared/api-types.js';
import type { AccountsContext } from '../accounts/context.js';
import type { PinEvents } from './pin-events.js';
import type { ReadWriteLock } from '../base/lock.js';

export interface DagCensus {
  /** Bytes of the unique blocks held locally under the root. */
  bytes: number;
  /** How many blocks the DAG links to that are not held. */
  missing: number;
}

/** What pins need from the content engine: how much of a DAG is here. */
export interface PinContent {
  census(root: CID, signal?: AbortSignal): Promise<DagCensus>;
  /** A walk elsewhere just found the DAG complete, of these bytes: the next census may use it instead of walking. */
  knownComplete?(root: CID, bytes: number): void;
}

/** What the pins domain shows of the fetches under way (pin-fetches.ts keeps it). */
export interface PinFetchView {
  /** The fetch of this pin's blocks from the network, while one runs. */
  progressOf(pinId: number): PinFetchProgress | undefined;
}

export interface PinsContext {
  accounts: AccountsContext;
  content: PinContent;
  pinTimeoutSeconds: number;
  /**
   * Held shared by pin changes and exclusively by GC's mark-and-sweep, so a pin added while GC runs
   * cannot lose blocks that GC decided were unreachable a moment before.
   */
  gcLock: ReadWriteLock;
  /**
   * Called after a pin turned `pinning`, so that whoever settles pending pins watches its blocks and its
   * deadline (without it, a pin whose blocks never come would never reach `failure`).
   */
  onPinning?: () => void;
  /** The live event stream: every committed change of a pin (the server); absent in the CLI. */
  events?: PinEvents;
  /** Fetches from the network under way (the server); absent when nothing fetches (the CLI). */
  fetches?: PinFetchView;
}
