import type { DelegatedRoutingV1HttpApiClient, PeerRecord } from '@helia/delegated-routing-v1-http-api-client';
import type { CID } from 'multiformats/cid';
import './promise-with-resolvers.js';
import type { Logger } from '../base/logger.js';
import { gatewayUrlOfMultiaddr } from './gateway-multiaddr.js';
import { componentLogger } from './libp2p-logger.js';
import type { RoutedRecord, RoutingClient } from './routing.js';
import type { NetworkSettings } from './settings.js';

/** The transfer protocol of a trustless gateway provider (ipfs/specs routing/http-routing-v1, IPIP-484). */
export const GATEWAY_PROTOCOL = 'transport-ipfs-gateway-http';

export interface RoutingClientInit {
  settings: Pick<NetworkSettings, 'current' | 'onChange'>;
  logger: Logger;
  /** How long one request to one endpoint may take. Default 30 s (the library's). */
  timeoutMs?: number;
}

/** A {@link RoutingClient} that also lets go of its endpoints' clients when the service stops. */
export interface ClosableRoutingClient extends RoutingClient {
  close(): Promise<void>;
}

type RoutingLibrary = typeof import('@helia/delegated-routing-v1-http-api-client');

/** How long after start (or after endpoints are set) the routing library is loaded in the background. */
const WARM_UP_DELAY_MS = 1000;
let library: Promise<RoutingLibrary> | undefined;

/**
 * The routing library, loaded at the first request: with what it pulls in it is about 6 MiB of heap, which
 * an offline service (and every desktop install until it asks the network) would carry and collect for
 * nothing (test/bench/sync.ts, idle CPU).
 */
function routingLibrary(): Promise<RoutingLibrary> {
  if (library === undefined) {
    absorbLockedStreamCancel();
    library = import('@helia/delegated-routing-v1-http-api-client');
  }
  return library;
}

/**
 * The library cancels an NDJSON answer's body when its request is aborted (a consumer that has the
 * providers it needs stops the rest), but the body is locked by its own reader then, so `cancel()` rejects
 * and nobody handles it: without this, that stray rejection would end the service (Node's default for an
 * unhandled rejection). Only that one rejection is absorbed; any other is raised as Node would raise it.
 */
function absorbLockedStreamCancel(): void {
  process.on('unhandledRejection', (reason) => {
    const locked =
      reason instanceof TypeError && (reason as NodeJS.ErrnoException).code === 'ERR_INVALID_STATE' && /ReadableStream is locked/.test(reason.message);
    if (!locked) throw reason;
  });
}

/** A provider record's trustless gateway URLs: only a peer that says it speaks HTTP, only its HTTP addresses. */
export function gatewayUrlsOf(record: Pick<PeerRecord, 'Protocols' | 'Addrs'>): string[] {
  if (!record.Protocols.includes(GATEWAY_PROTOCOL)) return [];
  const urls: string[] = [];
  for (const addr of record.Addrs) {
    const url = gatewayUrlOfMultiaddr(addr.toString());
    if (url !== null && !urls.includes(url)) urls.push(url);
  }
  return urls;
}

/**
 * The Delegated Routing V1 client over every routing endpoint of the network settings, asked in parallel
 * (@helia/delegated-routing-v1-http-api-client, one client per endpoint, so each keeps its own request
 * queue). The settings are read at each call: a change applies to the next request, and an endpoint
 * dropped from them has its client stopped. Offline, nothing is sent.
 */
export function createRoutingClient(init: RoutingClientInit): ClosableRoutingClient {
  const { settings, logger } = init;
  const libraryLogger = componentLogger(logger);
  const clients = new Map<string, DelegatedRoutingV1HttpApiClient>();

  const clientOf = async (endpoint: string): Promise<DelegatedRoutingV1HttpApiClient> => {
    const known = clients.get(endpoint);
    if (known !== undefined) return known;
    const { delegatedRoutingV1HttpApiClient } = await routingLibrary();
    // Another call may have made it while the library loaded.
    let client = clients.get(endpoint);
    if (client === undefined) {
      // The library appends `routing/v1/…` to the URL as given: a trailing slash keeps an endpoint's path.
      client = delegatedRoutingV1HttpApiClient({ url: `${endpoint}/`, timeout: init.timeoutMs ?? 30_000, cacheTTL: 0 })({ logger: libraryLogger });
      clients.set(endpoint, client);
    }
    return client;
  };
  const endpoints = (): readonly string[] => {
    const values = settings.current();
    return values.offline ? [] : values.routing;
  };
  const stopClients = async (keep: readonly string[]): Promise<void> => {
    const leaving = [...clients].filter(([endpoint]) => !keep.includes(endpoint));
    for (const [endpoint] of leaving) clients.delete(endpoint);
    await Promise.all(leaving.map(([, client]) => client.stop()));
  };
  // Loaded soon after start when endpoints are set, off the start's path and before the first fetch needs
  // it (its first load takes a few hundred milliseconds); an offline service never loads it.
  let warmUp: NodeJS.Timeout | null = null;
  const warmSoon = (): void => {
    if (warmUp !== null || library !== undefined || endpoints().length === 0) return;
    warmUp = setTimeout(() => {
      warmUp = null;
      routingLibrary().catch((error: unknown) => logger.warn('routing: the routing library did not load', { error }));
    }, WARM_UP_DELAY_MS);
    warmUp.unref();
  };
  warmSoon();
  const unsubscribe = settings.onChange((values) => {
    void stopClients(values.offline ? [] : values.routing);
    warmSoon();
  });

  return {
    gatewayProviders: (cid, options = {}) => mergedProviders(endpoints(), clientOf, cid, logger, options.signal),

    async getRecords(name, options = {}) {
      const targets = endpoints();
      const answers = await Promise.allSettled(targets.map(async (endpoint) => (await clientOf(endpoint)).getIPNS(name, { signal: options.signal })));
      const records: RoutedRecord[] = [];
      answers.forEach((answer, i) => {
        if (answer.status === 'fulfilled') records.push({ endpoint: targets[i] as string, record: answer.value });
        else if (!isNotFound(answer.reason))
          logger.debug('routing: IPNS record lookup failed', { endpoint: targets[i], name: name.toString(), error: answer.reason });
      });
      return records;
    },

    async putRecord(name, record, options = {}) {
      const targets = endpoints();
      const answers = await Promise.allSettled(targets.map(async (endpoint) => (await clientOf(endpoint)).putIPNS(name, record, { signal: options.signal })));
      const accepted: string[] = [];
      const failed: { endpoint: string; reason: string }[] = [];
      answers.forEach((answer, i) => {
        const endpoint = targets[i] as string;
        if (answer.status === 'fulfilled') accepted.push(endpoint);
        else failed.push({ endpoint, reason: answer.reason instanceof Error ? answer.reason.message : String(answer.reason) });
      });
      return { accepted, failed };
    },

    async close() {
      if (warmUp !== null) clearTimeout(warmUp);
      unsubscribe();
      await stopClients([]);
    },
  };
}

function isNotFound(error: unknown): boolean {
  return error instanceof Error && error.name === 'NotFoundError';
}

/**
 * Every endpoint's providers at once, as they arrive, each gateway URL once. An endpoint that fails is
 * logged and the others go on; a consumer that stops early (or the signal) cancels every request.
 */
async function* mergedProviders(
  endpoints: readonly string[],
  clientOf: (endpoint: string) => Promise<DelegatedRoutingV1HttpApiClient>,
  cid: CID,
  logger: Logger,
  signal?: AbortSignal,
): AsyncGenerator<string> {
  if (endpoints.length === 0) return;
  const controller = new AbortController();
  const abort = (): void => controller.abort(signal?.reason);
  if (signal?.aborted) return;
  signal?.addEventListener('abort', abort, { once: true });
  const found: string[] = [];
  const seen = new Set<string>();
  let running = endpoints.length;
  let wake: (() => void) | null = null;
  const notify = (): void => {
    const waiting = wake;
    wake = null;
    waiting?.();
  };
  controller.signal.addEventListener('abort', notify, { once: true });
  for (const endpoint of endpoints) {
    void (async () => {
      try {
        for await (const record of (await clientOf(endpoint)).getProviders(cid, { signal: controller.signal, filterProtocols: [GATEWAY_PROTOCOL] })) {
          for (const url of gatewayUrlsOf(record)) {
            if (seen.has(url)) continue;
            seen.add(url);
            found.push(url);
            notify();
          }
        }
      } catch (error) {
        if (!controller.signal.aborted) logger.debug('routing: provider lookup failed', { endpoint, cid: cid.toString(), error });
      } finally {
        running--;
        notify();
      }
    })();
  }
  try {
    for (;;) {
      const url = found.shift();
      if (url !== undefined) yield url;
      else if (running === 0 || controller.signal.aborted) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    signal?.removeEventListener('abort', abort);
    controller.abort();
  }
}
