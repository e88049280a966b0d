import { CID } from 'multiformats/cid';
import { InvalidRecordError } from './records.js';
import type { Clock } from '../base/clock.js';
import type { KeyedLock } from '../base/keyed-lock.js';
import type { Logger } from '../base/logger.js';
import type { NameRecordSources } from '../network/name-records.js';
import type { NamesRepository } from '../store/repositories/names.js';
import { LIBP2P_KEY_CODEC, type IpnsName } from './name-parse.js';
import { isNewerRecord, keepNewerRecord } from './record-store.js';
import { validateRecord, type ValidRecord } from './records.js';

/**
 * The newest record of a name that can be had now, for a followed folder (issue 24): asked afresh every
 * time (the resolver's cache keeps a record for its TTL, minutes, which would hold a follower back), from
 * the routing endpoints and fetch sources of the settings and the folder's own gateways, besides the record
 * an account here holds and the one kept from an earlier lookup. Every record is verified (signature,
 * validity, that it is this name's); one that is not is dropped and logged. A newer record from the network
 * is kept as the resolver keeps one (never replacing a newer), and the resolver's cache of the name dropped,
 * so `/ipns/<name>` here serves it too.
 */
export interface LatestRecordDeps {
  names: Pick<NamesRepository, 'nameByName' | 'routingRecord' | 'putRoutingRecord' | 'countRoutingRecords'>;
  nameLock: KeyedLock;
  clock: Clock;
  /** Absent: only what the store holds. */
  network?: Pick<NameRecordSources, 'records'>;
  /** The resolver, whose cached record of the name is dropped once a newer one is kept. */
  forget?: (name: string) => void;
  logger: Logger;
}

export interface LatestRecordOptions {
  /** Gateways asked besides the settings' fetch sources. */
  sources?: readonly string[];
  /** Records already in hand (a push answer), unverified: they compete with the others. */
  candidates?: readonly Uint8Array[];
  /** Skip the network: judge only the candidates and what the store holds. */
  offline?: boolean;
  signal?: AbortSignal;
}

export interface LatestRecord {
  /** The newest valid record; undefined when there is none. */
  record: ValidRecord | undefined;
  /** How many records the network answered (valid or not): 0 when no source had one, or none could be reached. */
  networkAnswers: number;
}

export async function latestRecord(deps: LatestRecordDeps, name: IpnsName, options: LatestRecordOptions = {}): Promise<LatestRecord> {
  const now = deps.clock.nowMs();
  const owned = await deps.names.nameByName(name.name);
  const stored = owned === null ? await deps.names.routingRecord(name.name) : null;
  const local = [owned?.record, stored].filter((bytes) => bytes !== undefined && bytes !== null).map((bytes) => new Uint8Array(bytes));
  const fromNetwork =
    options.offline === true || deps.network === undefined
      ? []
      : await deps.network.records(CID.createV1(LIBP2P_KEY_CODEC, name.multihash), {
          ...(options.sources ? { sources: options.sources } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        });
  let best: ValidRecord | undefined;
  let bestIsLocal = false;
  for (const [index, bytes] of [...local, ...(options.candidates ?? []), ...fromNetwork.map((found) => found.bytes)].entries()) {
    let record: ValidRecord;
    try {
      record = await validateRecord(name, bytes, now);
    } catch (error) {
      if (!(error instanceof InvalidRecordError)) throw error;
      if (index >= local.length) deps.logger.warn('an IPNS record of a followed name was refused', { name: name.name, reason: error.reason });
      continue;
    }
    if (best === undefined || isNewerRecord(record, best)) {
      best = record;
      bestIsLocal = index < local.length;
    }
  }
  if (best !== undefined && !bestIsLocal && owned === null) {
    const outcome = await keepNewerRecord({ names: deps.names, nameLock: deps.nameLock }, name, best, now);
    if (outcome === 'stored') deps.forget?.(name.name);
  }
  return { record: best, networkAnswers: fromNetwork.length };
}
