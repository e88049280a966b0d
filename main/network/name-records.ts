import { base36 } from 'multiformats/bases/base36';
import type { CID } from 'multiformats/cid';
import { linkedSignal } from '../base/linked-signal.js';
import type { Logger } from '../base/logger.js';
import type { RoutingClient } from './routing.js';
import type { NetworkSettings } from './settings.js';

/** The IPNS record size limit of the ipns spec (and of every validator): a larger answer is not a record. */
export const MAX_RECORD_BYTES = 10 * 1024;
export const IPNS_RECORD_TYPE = 'application/vnd.ipfs.ipns-record';
/** How long one lookup may take in all: a gateway request for a name waits on it. */
export const NAME_LOOKUP_TIMEOUT_MS = 10_000;

/**
 * Where the records of a name held elsewhere are found (contract section 11): every routing endpoint
 * (`GET /routing/v1/ipns/{name}`) and every fetch source, as a trustless gateway (`GET /ipns/{name}?format=
 * ipns-record`), asked in parallel. Answers are bytes, unverified: the names domain verifies each and keeps
 * the best. Offline, nobody is asked.
 */
export interface NameRecordSources {
  /** `sources`: gateways asked besides the settings' fetch sources (a followed folder's own). */
  records(name: CID, options?: { signal?: AbortSignal; sources?: readonly string[] }): Promise<FoundRecord[]>;
}

/** A record's bytes, unverified, and where they were found: the routing endpoint's or the fetch source's URL. */
export interface FoundRecord {
  bytes: Uint8Array;
  source: string;
}

export interface NameRecordSourcesInit {
  settings: Pick<NetworkSettings, 'current'>;
  routing: Pick<RoutingClient, 'getRecords'>;
  logger: Logger;
  timeoutMs?: number;
}

export function createNameRecordSources(init: NameRecordSourcesInit): NameRecordSources {
  const timeoutMs = init.timeoutMs ?? NAME_LOOKUP_TIMEOUT_MS;
  return {
    async records(name, options = {}) {
      const { offline, fetchFrom } = init.settings.current();
      if (offline) return [];
      // Not AbortSignal.any with AbortSignal.timeout: a composite held weakly may be collected mid-lookup (base/linked-signal.ts).
      const linked = linkedSignal([options.signal], timeoutMs);
      const signal = linked.signal;
      const text = name.toString(base36);
      const [routed, ...fetched] = await Promise.all([
        init.routing.getRecords(name, { signal }).catch((error: unknown) => {
          init.logger.debug('IPNS record lookup through the routing endpoints failed', { name: text, error });
          return [];
        }),
        ...[...new Set([...fetchFrom, ...(options.sources ?? [])])].map((source) =>
          gatewayRecord(source, text, signal).catch((error: unknown) => {
            init.logger.debug('IPNS record lookup at a fetch source failed', { source, name: text, error });
            return null;
          }),
        ),
      ]).finally(() => linked.dispose());
      return [
        ...routed.map(({ endpoint, record }) => ({ bytes: record, source: endpoint })),
        ...fetched.filter((found): found is FoundRecord => found !== null),
      ];
    },
  };
}

/** One trustless gateway's record of `name`, or null when it has none (any answer but a record is none). */
async function gatewayRecord(source: string, name: string, signal: AbortSignal): Promise<FoundRecord | null> {
  const response = await fetch(`${source}/ipns/${name}?format=ipns-record`, { headers: { accept: IPNS_RECORD_TYPE }, signal });
  if (response.status !== 200 || !(response.headers.get('content-type') ?? '').includes(IPNS_RECORD_TYPE)) {
    await response.body?.cancel();
    return null;
  }
  const bytes = await readBounded(response, MAX_RECORD_BYTES);
  return bytes === null ? null : { bytes, source };
}

/** The body, or null when it is longer than `limit` (read no further than that). */
export async function readBounded(response: Response, limit: number): Promise<Uint8Array | null> {
  if (response.body === null) return null;
  const chunks: Uint8Array[] = [];
  let length = 0;
  // Leaving the loop early cancels the stream.
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    length += chunk.byteLength;
    if (length > limit) return null;
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
