import { CID } from 'multiformats/cid';
import { NotFoundError } from '../base/errors.js';
import type { KeyedLock } from '../base/keyed-lock.js';
import type { Logger } from '../base/logger.js';
import type { NameRecordSources } from '../network/name-records.js';
import type { NamesRepository } from '../store/repositories/names.js';
import { LIBP2P_KEY_CODEC, type IpnsName } from './name-parse.js';
import { isNewerRecord, keepNewerRecord } from './record-store.js';
import { InvalidRecordError, validateRecord, type ValidRecord } from './records.js';

export interface ForeignRecordDeps {
  names: NamesRepository;
  network?: Pick<NameRecordSources, 'records'>;
  nameLock: KeyedLock;
  maxStoredRecords?: number;
  logger: Logger;
}

/** The newest of `records` (the IPNS order; the first of equals); undefined for none. */
export function newestRecord(records: readonly ValidRecord[]): ValidRecord | undefined {
  let best: ValidRecord | undefined;
  for (const record of records) if (best === undefined || isNewerRecord(record, best)) best = record;
  return best;
}

/**
 * The best valid record of a name held elsewhere (contract section 11): the store's, the one seen before,
 * the network's, each verified; the highest sequence wins, so a record older than one already seen is never
 * used. A winner from the network is kept in the store.
 */
export async function foreignRecord(deps: ForeignRecordDeps, parsed: IpnsName, seen: ValidRecord | undefined, now: number): Promise<ValidRecord> {
  const stored = await storedRecord(deps, parsed, now);
  const fromNetwork = await networkRecords(deps, parsed, now);
  const best = newestRecord([...(seen ? [seen] : []), ...(stored.record ? [stored.record] : []), ...fromNetwork]);
  if (best === undefined) {
    // A broken stored record is an error of this node (5xx), as before anything was asked of the network.
    if (stored.fault !== undefined) throw stored.fault;
    throw new NotFoundError(`IPNS name ${parsed.name} not found`);
  }
  if (best === newestRecord(fromNetwork)) {
    const outcome = await keepNewerRecord(deps, parsed, best, now);
    if (outcome === 'older') {
      // A newer record was kept meanwhile (a PUT to the served routing API): that one wins.
      const kept = await deps.names.routingRecord(parsed.name);
      if (kept !== null) return validateRecord(parsed, new Uint8Array(kept), now);
    }
  }
  return best;
}

/** The routing record the store keeps for the name, verified; a fault when it does not verify. */
async function storedRecord(deps: ForeignRecordDeps, parsed: IpnsName, now: number): Promise<{ record?: ValidRecord; fault?: InvalidRecordError }> {
  const stored = await deps.names.routingRecord(parsed.name);
  if (stored === null) return {};
  try {
    return { record: await validateRecord(parsed, new Uint8Array(stored), now) };
  } catch (error) {
    if (!(error instanceof InvalidRecordError)) throw error;
    return { fault: error };
  }
}

/** The records the network answers for the name that verify, in the order answered. */
async function networkRecords(deps: ForeignRecordDeps, parsed: IpnsName, now: number): Promise<ValidRecord[]> {
  const fetched = (await deps.network?.records(CID.createV1(LIBP2P_KEY_CODEC, parsed.multihash))) ?? [];
  const valid: ValidRecord[] = [];
  for (const { bytes } of fetched) {
    try {
      valid.push(await validateRecord(parsed, bytes, now));
    } catch (error) {
      if (!(error instanceof InvalidRecordError)) throw error;
      // Someone answered a record that does not verify: it is dropped, never used.
      deps.logger.warn('an IPNS record from the network was refused', { name: parsed.name, reason: error.reason });
    }
  }
  return valid;
}
