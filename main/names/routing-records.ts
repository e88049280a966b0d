import { unixSeconds } from '../base/clock.js';
import { BadInputError, ConflictError } from '../base/errors.js';
import { announceNameChange, type NamesContext } from './context.js';
import type { IpnsName } from './name-parse.js';
import { InvalidRecordError, MAX_RECORD_BYTES, validateRecord, type RecordFault } from './records.js';

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

/** Fixture convention: a `*.ipns-record` file is named by its IPNS name up to the first `_` (or the stem). */
export function nameOfRecordFile(fileName: string): string {
  const base = fileName.replace(/^.*[\\/]/, '').replace(/\.ipns-record$/, '');
  return base.split('_')[0] ?? base;
}
