import type { KeyedLock } from '../base/keyed-lock.js';
import type { NamesRepository } from '../store/repositories/names.js';
import type { IpnsName } from './name-parse.js';
import { InvalidRecordError, validateRecord, type ValidRecord } from './records.js';

/**
 * Records of names held elsewhere kept in the store (`ipns_routing_records`) at most: anyone can make a public
 * gateway look a name up or PUT a record to it, so the table is bounded. Past it, a record is still used, only
 * not kept (a restart asks the network again).
 */
export const MAX_STORED_RECORDS = 10_000;

/** The IPNS order of records for one name: the higher sequence wins; at equal sequence, the later end of validity. */
export function isNewerRecord(a: Pick<ValidRecord, 'sequence' | 'validUntilMs'>, b: Pick<ValidRecord, 'sequence' | 'validUntilMs'>): boolean {
  return a.sequence > b.sequence || (a.sequence === b.sequence && a.validUntilMs > b.validUntilMs);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

/**
 * What became of a record offered for a name held elsewhere: `stored` (newer than the one kept, or the first),
 * `same` (the one kept), `older` (the one kept is newer: never replaced by an older one, so nobody can roll a
 * name back), `owned` (an account here holds the name: its own record is the one that counts), `full`.
 */
export type StoreOutcome = 'stored' | 'same' | 'older' | 'owned' | 'full';

export interface RecordStoreDeps {
  names: Pick<NamesRepository, 'nameByName' | 'routingRecord' | 'putRoutingRecord' | 'countRoutingRecords'>;
  /** The names' lock: the kept record is read, compared and replaced as one step per name. */
  nameLock: KeyedLock;
  maxStoredRecords?: number;
}

/**
 * Keeps `record` (already validated for `name`) as the record of a name held elsewhere when it is newer than
 * the one kept. A kept record that no longer validates (expired, or broken bytes put by an operator) counts
 * as none.
 */
export async function keepNewerRecord(deps: RecordStoreDeps, name: IpnsName, record: ValidRecord, nowMs: number): Promise<StoreOutcome> {
  return deps.nameLock.run(name.name, async () => {
    if ((await deps.names.nameByName(name.name)) !== null) return 'owned';
    const kept = await deps.names.routingRecord(name.name);
    if (kept !== null) {
      if (sameBytes(kept, record.bytes)) return 'same';
      const keptRecord = await validateRecord(name, new Uint8Array(kept), nowMs).catch((error: unknown) => {
        if (error instanceof InvalidRecordError) return null;
        throw error;
      });
      if (keptRecord !== null && !isNewerRecord(record, keptRecord)) return 'older';
    } else if ((await deps.names.countRoutingRecords()) >= (deps.maxStoredRecords ?? MAX_STORED_RECORDS)) {
      return 'full';
    }
    await deps.names.putRoutingRecord(name.name, record.bytes, Math.floor(nowMs / 1000));
    return 'stored';
  });
}
