import type { PinFetchProgress } from '../../shared/api-types.js';
import { unixSeconds } from '../base/clock.js';
import type { Logger } from '../base/logger.js';
import type { NetworkFetcher } from '../network/network-fetcher.js';
import type { PinRow } from '../store/repositories/pins.js';
import { CoalescedPass } from './coalesced-pass.js';
import type { PinFetchView, PinsContext } from './context.js';
import { fetchEndAction, PinNotPendingError, planPinFetches } from './pin-fetch-plan.js';
import { failPin, fetchPinBlocks } from './pin-fetch-run.js';
import { publishPin } from './pins.js';
import { ThrottledSend } from './throttled-send.js';

/** The progress of the fetches under way, by pin: what the API and the events show (PinsContext.fetches). */
export class PinFetchBoard implements PinFetchView {
  private readonly byPin = new Map<number, PinFetchProgress>();

  progressOf(pinId: number): PinFetchProgress | undefined {
    return this.byPin.get(pinId);
  }

  set(pinId: number, progress: PinFetchProgress): void {
    this.byPin.set(pinId, progress);
  }

  delete(pinId: number): void {
    this.byPin.delete(pinId);
  }
}

export interface PinFetchesInit {
  pins: PinsContext;
  fetcher: Pick<NetworkFetcher, 'online' | 'fetchDag' | 'onChange'>;
  board: PinFetchBoard;
  /**
   * A pin's own extra sources (a PSA pin's `origins`): HTTP(S) multiaddrs or gateway URLs; anything else is
   * ignored. None by default.
   */
  originsOf?: (pin: PinRow) => Promise<readonly string[]>;
  /** A fetch completed: the pending pins are settled (`pinned` once the census finds the DAG whole). */
  onFetched: () => void;
  /**
   * Whether this instance fetches (several instances on one database: the one that leads garbage
   * collection, so no pin is fetched, or its ingress counted, twice). Default: always.
   */
  leads?: () => boolean;
  logger: Logger;
  /** How often the `pinning` pins are looked at again without a nudge. Default 5 s. */
  sweepMs?: number;
  /** A pin's progress reaches the event stream at most this often. Default 1 s. */
  progressEventMs?: number;
  /** A fetch that failed for no reason of the pin's is tried again after this. Default 30 s. */
  retryMs?: number;
}

export interface PinFetches {
  /** A pin may have turned `pinning`, or blocks arrived: start the fetches that should run. */
  nudge(): void;
  /** Resolves once the looks asked so far are done (fetches themselves run on). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

interface Running {
  pin: PinRow;
  controller: AbortController;
  done: Promise<void>;
  progress: ThrottledSend;
}

/**
 * Every `pinning` pin whose DAG is incomplete gets its missing blocks from the network (contract section
 * 11): pin add, name/create with a pin, a PSA pin, a CAR import of a partial DAG, and at start every one
 * left unfinished, resumed from what is held. Looked for after each nudge and every `sweepMs`; a fetch
 * whose pin left `pinning` is stopped. Offline, nothing runs; a settings change applies at once.
 *
 * Each batch of fetched blocks commits with its ingress charged to the pin's account, in the transaction
 * that makes the blocks visible, after checking the plan's limit and that the pin still waits for them:
 * past the limit the batch is refused whole (nothing of it stored or counted) and the pin turns `failure`.
 * Every batch also moves the pin's deadline to a pin timeout from now: a pin fails at its timeout when no
 * source sent anything for that long, not while a large DAG is still coming in.
 */
export function startPinFetches(init: PinFetchesInit): PinFetches {
  const fetches = new PinFetchRunner(init);
  const nudge = (): void => fetches.looks.nudge();
  const unsubscribe = init.fetcher.onChange(nudge);
  const timer = setInterval(nudge, init.sweepMs ?? 5000);
  timer.unref();
  nudge();
  return {
    nudge,
    idle: () => fetches.looks.idle(),
    async close() {
      const closed = fetches.close();
      clearInterval(timer);
      unsubscribe();
      await closed;
    },
  };
}

/** The fetches under way, by pin, and the looks that start and stop them (pin-fetch-plan.ts decides). */
class PinFetchRunner {
  readonly looks: CoalescedPass;
  /** Set at close: nothing more starts. */
  private closing = false;
  private readonly running = new Map<number, Running>();
  /** Pins whose fetch failed for a passing reason: not tried again before this time (ms). */
  private readonly retryAfter = new Map<number, number>();
  private readonly retryMs: number;

  constructor(private readonly init: PinFetchesInit) {
    this.retryMs = init.retryMs ?? 30_000;
    this.looks = new CoalescedPass(
      () => this.look(),
      (error) => init.logger.error('looking for pins to fetch failed', { error }),
    );
  }

  /** Nothing more starts (at once); resolves once the look under way and every fetch have ended. */
  async close(): Promise<void> {
    this.closing = true;
    await this.looks.stop();
    for (const entry of this.running.values()) entry.controller.abort(new PinNotPendingError('the service is stopping'));
    await Promise.all([...this.running.values()].map((entry) => entry.done));
  }

  private async look(): Promise<void> {
    const { pins, fetcher } = this.init;
    if (!fetcher.online() || !(this.init.leads?.() ?? true)) {
      for (const entry of this.running.values()) entry.controller.abort(new Error('offline, or another instance fetches'));
      return;
    }
    const pending = await pins.accounts.store.pins.pinsWithStatus('pinning');
    const now = { running: this.running, retryAfter: this.retryAfter, stopping: this.closing };
    const plan = planPinFetches(pending, now, unixSeconds(pins.accounts.clock), Date.now());
    for (const pin of plan.start) this.start(pin);
    for (const id of plan.stop) this.running.get(id)?.controller.abort(new PinNotPendingError('the pin is no longer pinning'));
    for (const id of plan.forget) this.retryAfter.delete(id);
  }

  private start(pin: PinRow): void {
    const entry: Running = {
      pin,
      controller: new AbortController(),
      done: Promise.resolve(),
      progress: new ThrottledSend(this.init.progressEventMs ?? 1000, () => this.publishProgress(entry)),
    };
    this.running.set(pin.id, entry);
    this.init.board.set(pin.id, { blocks: 0, bytes: 0, source: null });
    entry.done = this.fetch(entry);
  }

  private async fetch(entry: Running): Promise<void> {
    const { pin, controller } = entry;
    try {
      await fetchPinBlocks(this.init, pin, controller.signal, (progress) => {
        this.init.board.set(pin.id, progress);
        entry.progress.poke();
      });
      // Settling turns it `pinned`; not walked again meanwhile, but fetched again if settling finds a block
      // gone since (collected between the fetch's last walk and the census).
      this.retryAfter.set(pin.id, Date.now() + this.retryMs);
      this.init.onFetched();
    } catch (error) {
      await this.fetchEnded(pin, controller.signal, error);
    } finally {
      entry.progress.dispose();
      this.running.delete(pin.id);
      this.init.board.delete(pin.id);
    }
  }

  private async fetchEnded(pin: PinRow, signal: AbortSignal, error: unknown): Promise<void> {
    const action = fetchEndAction(error, signal.aborted);
    if (action === 'fail-pin') {
      this.init.logger.warn('a pin fetch failed', { cid: pin.cid, reason: error instanceof Error ? error.message : String(error) });
      await failPin(this.init.pins, pin);
    } else if (action === 'retry-later') {
      this.init.logger.warn('a pin fetch stopped; it is tried again later', { cid: pin.cid, error });
      this.retryAfter.set(pin.id, Date.now() + this.retryMs);
    }
  }

  /** The row as it is now (a rename since the fetch started shows), with the progress the board holds. */
  private publishProgress(entry: Running): void {
    const { pins, logger } = this.init;
    void pins.accounts.store.pins.pinOf(entry.pin.accountId, entry.pin.cid).then(
      (row) => {
        if (row && row.id === entry.pin.id && row.status === 'pinning' && this.running.get(row.id) === entry) publishPin(pins, row);
      },
      (error: unknown) => logger.debug('fetch progress event failed', { error }),
    );
  }
}
