import { CID } from 'multiformats/cid';
import type { PinFetchProgress } from '../../shared/api-types.js';
import { unixSeconds } from '../base/clock.js';
import { LimitReachedError } from '../base/errors.js';
import type { Logger } from '../base/logger.js';
import { check, record } from '../accounts/usage.js';
import type { FetchDagOptions } from '../network/dag-fetch.js';
import { UnfetchableDagError } from '../network/fetch-errors.js';
import { gatewayUrlOfMultiaddr } from '../network/gateway-multiaddr.js';
import type { NetworkFetcher } from '../network/network-fetcher.js';
import { parseEndpoint } from '../network/endpoints.js';
import type { Transaction } from '../store/repositories/index.js';
import type { PinRow } from '../store/repositories/pins.js';
import type { PinFetchView, PinsContext } from './context.js';
import { publishPin } from './pins.js';

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

/** The pin is no longer `pinning` (removed, failed at its deadline, complete): what its fetch got is not wanted. */
class PinNotPendingError extends Error {
  override readonly name = 'PinNotPendingError';
}

interface Running {
  pin: PinRow;
  controller: AbortController;
  done: Promise<void>;
  lastEvent: number;
  eventTimer: NodeJS.Timeout | null;
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
  const { pins, fetcher, board, logger } = init;
  const sweepMs = init.sweepMs ?? 5000;
  const progressEventMs = init.progressEventMs ?? 1000;
  const retryMs = init.retryMs ?? 30_000;
  const running = new Map<number, Running>();
  /** Pins whose fetch failed for a passing reason: not tried again before this time (ms). */
  const retryAfter = new Map<number, number>();
  const stopping = new AbortController();
  let looking: Promise<void> = Promise.resolve();
  let again = false;
  let busy = false;

  const look = async (): Promise<void> => {
    if (!fetcher.online() || !(init.leads?.() ?? true)) {
      for (const entry of running.values()) entry.controller.abort(new Error('offline, or another instance fetches'));
      return;
    }
    const pending = await pins.accounts.store.pins.pinsWithStatus('pinning');
    const now = unixSeconds(pins.accounts.clock);
    const wanted = new Set<number>();
    for (const pin of pending) {
      wanted.add(pin.id);
      if (running.has(pin.id) || stopping.signal.aborted) continue;
      if (pin.deadline !== null && pin.deadline <= now) continue;
      if ((retryAfter.get(pin.id) ?? 0) > Date.now()) continue;
      start(pin);
    }
    for (const [id, entry] of running) if (!wanted.has(id)) entry.controller.abort(new PinNotPendingError('the pin is no longer pinning'));
    for (const id of retryAfter.keys()) if (!wanted.has(id)) retryAfter.delete(id);
  };

  const pass = async (): Promise<void> => {
    busy = true;
    try {
      do {
        again = false;
        await look();
      } while (again && !stopping.signal.aborted);
    } catch (error) {
      if (!stopping.signal.aborted) logger.error('looking for pins to fetch failed', { error });
    } finally {
      busy = false;
    }
  };

  const nudge = (): void => {
    if (stopping.signal.aborted) return;
    if (busy) {
      again = true;
      return;
    }
    looking = pass();
  };

  const publishProgress = (entry: Running): void => {
    if (entry.eventTimer !== null) return;
    const wait = entry.lastEvent + progressEventMs - Date.now();
    const send = (): void => {
      entry.eventTimer = null;
      entry.lastEvent = Date.now();
      // The row as it is now (a rename since the fetch started shows), with the progress the board holds.
      void pins.accounts.store.pins.pinOf(entry.pin.accountId, entry.pin.cid).then(
        (row) => {
          if (row && row.id === entry.pin.id && row.status === 'pinning' && running.get(row.id) === entry) publishPin(pins, row);
        },
        (error: unknown) => logger.debug('fetch progress event failed', { error }),
      );
    };
    if (wait <= 0) send();
    else {
      entry.eventTimer = setTimeout(send, wait);
      entry.eventTimer.unref();
    }
  };

  const start = (pin: PinRow): void => {
    const controller = new AbortController();
    const entry: Running = { pin, controller, done: Promise.resolve(), lastEvent: 0, eventTimer: null };
    running.set(pin.id, entry);
    board.set(pin.id, { blocks: 0, bytes: 0, source: null });
    entry.done = (async () => {
      try {
        const origins = await originUrls(init.originsOf, pin, logger);
        const options: FetchDagOptions = {
          signal: controller.signal,
          origins,
          onCommit: (tx, stored) => chargeFetch(pins, tx, pin, stored.bytes),
          onProgress(progress) {
            board.set(pin.id, progress);
            publishProgress(entry);
          },
        };
        const root = CID.parse(pin.cid);
        const result = await fetcher.fetchDag(root, options);
        // The fetch's last walk found it whole: settling need not walk it again.
        pins.content.knownComplete?.(root, result.dagBytes);
        logger.info('fetched a pin from the network', { cid: pin.cid, blocks: result.blocks, bytes: result.bytes });
        // Settling turns it `pinned`; not walked again meanwhile, but fetched again if settling finds a block
        // gone since (collected between the fetch's last walk and the census).
        retryAfter.set(pin.id, Date.now() + retryMs);
        init.onFetched();
      } catch (error) {
        await fetchEnded(pin, controller.signal, error);
      } finally {
        if (entry.eventTimer) clearTimeout(entry.eventTimer);
        running.delete(pin.id);
        board.delete(pin.id);
      }
    })();
  };

  const fetchEnded = async (pin: PinRow, signal: AbortSignal, error: unknown): Promise<void> => {
    if (error instanceof LimitReachedError || error instanceof UnfetchableDagError) {
      logger.warn('a pin fetch failed', { cid: pin.cid, reason: error.message });
      await failPin(pins, pin);
      return;
    }
    // Stopped on purpose: the pin left `pinning`, the service stops, or it went offline (the next look
    // after it is back online starts it again).
    if (error instanceof PinNotPendingError || signal.aborted) return;
    logger.warn('a pin fetch stopped; it is tried again later', { cid: pin.cid, error });
    retryAfter.set(pin.id, Date.now() + retryMs);
  };

  const unsubscribe = fetcher.onChange(nudge);
  const timer = setInterval(nudge, sweepMs);
  timer.unref();
  nudge();

  return {
    nudge,
    idle: () => looking,
    async close() {
      stopping.abort();
      clearInterval(timer);
      unsubscribe();
      await looking;
      for (const entry of running.values()) entry.controller.abort(new PinNotPendingError('the service is stopping'));
      await Promise.all([...running.values()].map((entry) => entry.done));
    },
  };
}

/**
 * In the transaction that makes a batch of fetched blocks visible: the pin still waits for them, the
 * account's plan takes their bytes as ingress (else LimitReachedError: the batch is refused whole), the
 * bytes are counted, and the pin's deadline moves to a pin timeout from now.
 */
async function chargeFetch(ctx: PinsContext, tx: Transaction, pin: PinRow, bytes: number): Promise<void> {
  const row = await tx.pins.pinOf(pin.accountId, pin.cid);
  if (!row || row.id !== pin.id || row.status !== 'pinning') throw new PinNotPendingError('the pin is no longer pinning');
  await check(ctx.accounts, tx, pin.accountId, 'ingress', bytes);
  await record(ctx.accounts, tx, pin.accountId, 'ingress', bytes);
  const now = unixSeconds(ctx.accounts.clock);
  await tx.pins.updatePinState(row.id, 'pinning', 0, now + ctx.pinTimeoutSeconds, now);
}

/** The pin turns `failure` (if it is still the `pinning` pin the fetch was for), and the window hears of it. */
async function failPin(ctx: PinsContext, pin: PinRow): Promise<void> {
  const { store, clock } = ctx.accounts;
  const failed = await store.transaction(async (tx) => {
    const row = await tx.pins.pinOf(pin.accountId, pin.cid);
    if (!row || row.id !== pin.id || row.status !== 'pinning') return null;
    await tx.pins.updatePinState(row.id, 'failure', 0, null, unixSeconds(clock));
    return tx.pins.pinOf(pin.accountId, pin.cid);
  });
  if (failed) publishPin(ctx, failed);
}

/** A pin's origins as gateway URLs: HTTP(S) multiaddrs (the PSA's form) or URLs; anything else is ignored. */
async function originUrls(originsOf: PinFetchesInit['originsOf'], pin: PinRow, logger: Logger): Promise<string[]> {
  if (originsOf === undefined) return [];
  const urls: string[] = [];
  for (const origin of await originsOf(pin)) {
    let url = gatewayUrlOfMultiaddr(origin);
    if (url === null && /^https?:\/\//i.test(origin)) {
      try {
        url = parseEndpoint(origin, 'origin');
      } catch {
        url = null;
      }
    }
    if (url === null) logger.debug('a pin origin is not an HTTP address; ignored', { cid: pin.cid, origin });
    else if (!urls.includes(url)) urls.push(url);
  }
  return urls;
}
