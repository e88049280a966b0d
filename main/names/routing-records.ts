import { ErrorCodes } from '../../shared/error-codes.js';
import { unixSeconds } from '../base/clock.js';
import { BadInputError, ConflictError, ForbiddenError } from '../base/errors.js';
import { announceNameChange, type NamesContext } from './context.js';
import type { IpnsName } from './name-parse.js';
import { keepNewerRecord, MAX_STORED_RECORDS } from './record-store.js';
import { noteSeenRecord, PUSHED_SOURCE } from './seen-records.js';
import { InvalidRecordError, MAX_RECORD_BYTES, validateRecord, type RecordFault, type ValidRecord } from './records.js';

export type RoutingRecordCheck =
  { ok: true; name: string; value: string; sequence: bigint; ttlSeconds: number } | { ok: false; name: string; reason: RecordFault; message: string };

/**
 * Stores a signed record for a name whose key we do not hold, like `ipfs routing put` into offline routing.
 * The bytes are kept even when they do not validate, so `/ipns/<name>` answers 5xx for a broken record (as the
 * gateway conformance suite expects) instead of 404; the returned check says which it is. Resolution validates
 * the bytes once and then serves them from the cache.
 */
export async function putRoutingRecord(ctx: NamesContext, parsed: IpnsName, bytes: Uint8Array): Promise<RoutingRecordCheck> {
  if (bytes.byteLength === 0 || bytes.byteLength > MAX_RECORD_BYTES) {
    throw new BadInputError(`record must be 1 to ${MAX_RECORD_BYTES} bytes`);
  }
  if ((await ctx.store.names.nameByName(parsed.name)) !== null) throw new ConflictError(`name ${parsed.name} is held by an account here`);
  let check: RoutingRecordCheck;
  try {
    const record = await validateRecord(parsed, bytes, ctx.clock.nowMs());
    check = { ok: true, name: parsed.name, value: record.value, sequence: record.sequence, ttlSeconds: record.ttlSeconds };
  } catch (error) {
    if (!(error instanceof InvalidRecordError)) throw error;
    check = { ok: false, name: parsed.name, reason: error.reason, message: error.message };
  }
  await ctx.store.names.putRoutingRecord(parsed.name, bytes, unixSeconds(ctx.clock));
  ctx.resolver.forget(parsed.name);
  announceNameChange(ctx, parsed.name);
  return check;
}

export async function removeRoutingRecord(ctx: NamesContext, parsed: IpnsName): Promise<boolean> {
  const removed = await ctx.store.names.deleteRoutingRecord(parsed.name);
  ctx.resolver.forget(parsed.name);
  announceNameChange(ctx, parsed.name);
  return removed;
}

/**
 * The record the served routing API answers for `name` (`GET /routing/v1/ipns/{name}`, contract section 11):
 * the one of a name an account here holds, else the record kept of a name held elsewhere; null when there is
 * none, or the one there is does not validate (it is never handed on).
 */
export async function servedRecord(ctx: NamesContext, parsed: IpnsName): Promise<ValidRecord | null> {
  const bytes = (await ctx.store.names.nameByName(parsed.name))?.record ?? (await ctx.store.names.routingRecord(parsed.name));
  if (bytes === null) return null;
  try {
    return await validateRecord(parsed, new Uint8Array(bytes), ctx.clock.nowMs());
  } catch (error) {
    if (error instanceof InvalidRecordError) return null;
    throw error;
  }
}

/**
 * `PUT /routing/v1/ipns/{name}` (contract section 11): another node publishes a name to this one. Taken from
 * anyone, as a routing endpoint does, for a name no account here holds, when the record verifies (400
 * otherwise) and is not older than the one kept (409: nobody can roll a name back); then served by
 * `GET /routing/v1/ipns/{name}` and resolved by `/ipns/{name}`. The records kept this way are bounded (403
 * when full). A name an account here holds is refused (409): its own record is the one that counts.
 */
export async function acceptPutRecord(ctx: NamesContext, parsed: IpnsName, bytes: Uint8Array): Promise<'stored' | 'same'> {
  if (bytes.byteLength === 0 || bytes.byteLength > MAX_RECORD_BYTES) throw new BadInputError(`record must be 1 to ${MAX_RECORD_BYTES} bytes`);
  let record: ValidRecord;
  try {
    record = await validateRecord(parsed, bytes, ctx.clock.nowMs());
  } catch (error) {
    if (error instanceof InvalidRecordError) throw new BadInputError(`record: ${error.message}`);
    throw error;
  }
  const outcome = await keepNewerRecord({ names: ctx.store.names, nameLock: ctx.nameLock }, parsed, record, ctx.clock.nowMs());
  switch (outcome) {
    case 'owned': {
      // The same key on another machine published it (only the key's holder signs a record that verifies): kept
      // as seen, so this Pinfold never publishes the name below it, and a sync folder publishing it shows the conflict.
      const held = await ctx.store.names.nameByName(parsed.name);
      if (held !== null) await noteSeenRecord(ctx, held, record, PUSHED_SOURCE);
      throw new ConflictError(`name ${parsed.name} is held by an account here; its own record is the one served`);
    }
    case 'older':
      throw new ConflictError(`name ${parsed.name}: a record with a higher sequence (or the same sequence, valid longer) is held`);
    case 'full':
      throw new ForbiddenError(`this node keeps at most ${MAX_STORED_RECORDS} records of names held elsewhere, and is full`, ErrorCodes.capacity);
    case 'stored':
      ctx.resolver.forget(parsed.name);
      announceNameChange(ctx, parsed.name);
      return outcome;
    case 'same':
      return outcome;
  }
}

/** Fixture convention: a `*.ipns-record` file is named by its IPNS name up to the first `_` (or the stem). */
export function nameOfRecordFile(fileName: string): string {
  const base = fileName.replace(/^.*[\\/]/, '').replace(/\.ipns-record$/, '');
  return base.split('_')[0] ?? base;
}
