import { CID } from 'multiformats/cid';
import type { PinFetchProgress } from '../../shared/api-types.js';
import { unixSeconds } from '../base/clock.js';
import type { Logger } from '../base/logger.js';
import { check, record } from '../accounts/usage.js';
import { gatewayUrlOfMultiaddr } from '../network/gateway-multiaddr.js';
import type { NetworkFetcher } from '../network/network-fetcher.js';
import { parseEndpoint } from '../network/endpoints.js';
import type { Transaction } from '../store/repositories/index.js';
import type { PinRow } from '../store/repositories/pins.js';
import type { PinsContext } from './context.js';
import { PinNotPendingError } from './pin-fetch-plan.js';
import { publishPin } from './pins.js';

/** What one pin's fetch needs (pin-fetches.ts's init). */
export interface PinFetchDeps {
  pins: PinsContext;
  fetcher: Pick<NetworkFetcher, 'fetchDag'>;
  originsOf?: (pin: PinRow) => Promise<readonly string[]>;
  logger: Logger;
}

/**
 * Fetches the blocks of the pin's DAG that are missing here, from the fetch sources and the pin's own
 * origins, each batch's ingress charged to the pin's account as it commits (chargeFetch).
 */
export async function fetchPinBlocks(deps: PinFetchDeps, pin: PinRow, signal: AbortSignal, onProgress: (progress: PinFetchProgress) => void): Promise<void> {
  const origins = await originUrls(deps.originsOf, pin, deps.logger);
  const root = CID.parse(pin.cid);
  const result = await deps.fetcher.fetchDag(root, {
    signal,
    origins,
    onCommit: (tx, stored) => chargeFetch(deps.pins, tx, pin, stored.bytes),
    // A batch lands as pin writes do, never inside a GC cycle (whose mark would not see it).
    commitUnder: (commit) => deps.pins.gcLock.shared(() => commit()),
    onProgress,
  });
  // The fetch's last walk found it whole: settling need not walk it again.
  if (result.dagBytes !== undefined) deps.pins.content.knownComplete?.(root, result.dagBytes);
  deps.logger.info('fetched a pin from the network', { cid: pin.cid, blocks: result.blocks, bytes: result.bytes });
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
export async function failPin(ctx: PinsContext, pin: PinRow): Promise<void> {
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
async function originUrls(originsOf: PinFetchDeps['originsOf'], pin: PinRow, logger: Logger): Promise<string[]> {
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
