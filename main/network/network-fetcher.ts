import type { CID } from 'multiformats/cid';
import { NotFoundError } from '../base/errors.js';
import type { Logger } from '../base/logger.js';
import type { Blocks } from '../store/blocks.js';
import { fetchDag, type FetchDagOptions, type FetchDagResult } from './dag-fetch.js';
import { fetchTuning, type FetchTuning } from './fetch-tuning.js';
import type { GatewaySource } from './gateway-source.js';
import type { RoutingClient } from './routing.js';
import type { NetworkSettings } from './settings.js';
import { SourcePool } from './source-pool.js';

export interface NetworkFetcherInit {
  settings: Pick<NetworkSettings, 'current' | 'onChange'>;
  /** Where providers are found; absent: only the settings' sources (and a fetch's own) are asked. */
  routing?: Pick<RoutingClient, 'gatewayProviders'>;
  blocks: Pick<Blocks, 'createBatch' | 'findBlock' | 'blockSize' | 'maxBlockBytes' | 'removals'>;
  logger: Logger;
  tuning?: Partial<FetchTuning>;
}

/**
 * Blocks and DAGs from the IPFS network over HTTP (contract section 11): the trustless gateways of the
 * network settings (`fetch_from`), the providers routing finds, and a caller's own sources, all verified.
 * Offline, nothing is asked of anyone. A settings change applies at once, to fetches under way too.
 */
export interface NetworkFetcher {
  /** False when the settings say offline: no request leaves. */
  online(): boolean;
  /**
   * One block's verified bytes from any source that has it (the settings' first, then providers);
   * NotFoundError when none does, or offline. Nothing is stored.
   */
  fetchBlock(cid: CID, signal?: AbortSignal): Promise<Uint8Array>;
  /** Every missing block of the DAG, verified, into the store (see dag-fetch.ts). */
  fetchDag(root: CID, options?: FetchDagOptions): Promise<FetchDagResult>;
  /** Called when the settings changed what is in use (after the fetches under way were told). */
  onChange(listener: () => void): () => void;
  close(): void;
}

export function createNetworkFetcher(init: NetworkFetcherInit): NetworkFetcher {
  const tuning = fetchTuning(init.tuning);
  const pool = new SourcePool(tuning, init.blocks.maxBlockBytes);
  const listeners = new Set<() => void>();
  const online = (): boolean => !init.settings.current().offline;
  const sourceUrls = (own: readonly string[]): readonly string[] => (online() ? [...init.settings.current().fetchFrom, ...own] : []);
  const { routing } = init;
  const findProviders = routing === undefined ? undefined : (cid: CID, signal: AbortSignal): AsyncIterable<string> => routing.gatewayProviders(cid, { signal });
  const unsubscribe = init.settings.onChange(() => {
    pool.changed();
    for (const listener of [...listeners]) listener();
  });

  return {
    online,
    fetchBlock: (cid, signal) => fetchOneBlock(pool, sourceUrls, online() ? findProviders : undefined, cid, signal),
    fetchDag: (root, options) =>
      fetchDag({ blocks: init.blocks, pool, sourceUrls, ...(findProviders ? { findProviders } : {}), tuning, logger: init.logger }, root, options),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: unsubscribe,
  };
}

/** Asks the ready sources one after another: the settings' first, then providers as routing finds them. */
async function fetchOneBlock(
  pool: SourcePool,
  sourceUrls: (own: readonly string[]) => readonly string[],
  findProviders: ((cid: CID, signal: AbortSignal) => AsyncIterable<string>) | undefined,
  cid: CID,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const asked = new Set<string>();
  const ask = async (urls: readonly string[]): Promise<Uint8Array | undefined> => {
    for (const source of pool.sourcesFor(urls)) {
      if (asked.has(source.url) || !source.health.isReady()) continue;
      asked.add(source.url);
      const bytes = await askSource(pool, source, cid, signal);
      if (bytes !== undefined) return bytes;
    }
    return undefined;
  };
  const first = await ask(sourceUrls([]));
  if (first !== undefined) return first;
  if (findProviders !== undefined) {
    const controller = new AbortController();
    const forward = (): void => controller.abort(signal?.reason);
    signal?.addEventListener('abort', forward, { once: true });
    try {
      for await (const url of findProviders(cid, controller.signal)) {
        // Read through sourceUrls, so a switch to offline meanwhile stops here too.
        const bytes = await ask(sourceUrls([url]).filter((candidate) => candidate === url));
        if (bytes !== undefined) return bytes;
      }
    } finally {
      signal?.removeEventListener('abort', forward);
      controller.abort();
    }
  }
  signal?.throwIfAborted();
  throw new NotFoundError(`block ${cid.toString()} was not found on the network`);
}

/** One block request within the source's request slots (waiting for a free one). */
async function askSource(pool: SourcePool, source: GatewaySource, cid: CID, signal?: AbortSignal): Promise<Uint8Array | undefined> {
  while (!source.tryAcquire()) await nextChange(pool, signal);
  try {
    const answer = await source.getBlock(cid, signal);
    return answer.kind === 'block' ? answer.bytes : undefined;
  } finally {
    source.release();
  }
}

function nextChange(pool: SourcePool, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const stop = pool.onChange(() => {
      stop();
      signal?.removeEventListener('abort', aborted);
      resolve();
    });
    const aborted = (): void => {
      stop();
      reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
