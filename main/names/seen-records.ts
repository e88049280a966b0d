import { CID } from 'multiformats/cid';
import { unixSeconds } from '../base/clock.js';
import type { Repositories } from '../store/repositories/index.js';
import type { NameRow, SeenRecordRow } from '../store/repositories/names.js';
import type { NamesContext } from './context.js';
import { LIBP2P_KEY_CODEC, type IpnsName } from './name-parse.js';
import { isConflict, newestForeign } from './publish-guard.js';
import { InvalidRecordError, validateRecord, type ValidRecord } from './records.js';

/**
 * How long a publish waits for the network's records of its name: a sync folder's batch commits after its
 * publish, so a slow endpoint must not hold every change up for the full lookup time. What answered by then counts.
 */
export const PUBLISH_CHECK_TIMEOUT_MS = 3_000;

/** The source of a record another node PUT to this gateway's routing API (contract section 11). */
export const PUSHED_SOURCE = 'pushed';

/**
 * Records of names held here, seen elsewhere (contract section 11, "two machines, one name"): the same key
 * imported on another machine publishes too. The newest such record is kept per name (`ipns_seen_records`);
 * publish-guard.ts decides with it.
 */

/**
 * Asks every routing endpoint and fetch source for the records of a name held here (before a publish of a
 * public name), verifies each, and keeps the newest that conflicts with the name's own. A record that does not
 * verify is dropped: only the key's holder can make one that does. Offline or unanswered, nothing is kept.
 */
export async function lookElsewhere(ctx: NamesContext, parsed: IpnsName, held: NameRow, timeoutMs = PUBLISH_CHECK_TIMEOUT_MS): Promise<void> {
  if (ctx.networkRecords === undefined) return;
  const found = await ctx.networkRecords.records(CID.createV1(LIBP2P_KEY_CODEC, parsed.multihash), { signal: AbortSignal.timeout(timeoutMs) });
  const nowMs = ctx.clock.nowMs();
  const valid: { seq: bigint; value: string; source: string }[] = [];
  for (const { bytes, source } of found) {
    try {
      const record = await validateRecord(parsed, bytes, nowMs);
      valid.push({ seq: record.sequence, value: record.value, source });
    } catch (error) {
      if (!(error instanceof InvalidRecordError)) throw error;
    }
  }
  const newest = newestForeign(held, valid);
  if (newest !== null) await noteSeen(ctx, held, newest.facts, newest.found.source);
}

/**
 * Keeps a verified record of a name held here, found elsewhere, when it conflicts with the name's own record and
 * is newer than the one kept; true when kept.
 */
export async function noteSeenRecord(ctx: NamesContext, held: NameRow, record: ValidRecord, source: string): Promise<boolean> {
  const newest = newestForeign(held, [{ seq: record.sequence, value: record.value }]);
  return newest !== null && (await noteSeen(ctx, held, newest.facts, source));
}

async function noteSeen(ctx: NamesContext, held: NameRow, facts: { seq: number; value: string }, source: string): Promise<boolean> {
  return ctx.store.names.noteSeenRecord(held.id, { ...facts, source, seenAt: unixSeconds(ctx.clock) });
}

/** The record seen elsewhere that the name's own record is behind (a conflict), or null. */
export async function conflictOf(repositories: Pick<Repositories, 'names'>, row: NameRow): Promise<SeenRecordRow | null> {
  const seen = await repositories.names.seenRecord(row.id);
  return isConflict(row, seen) ? seen : null;
}
