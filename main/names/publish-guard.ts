import { equals } from 'uint8arrays/equals';
import { ConflictError } from '../base/errors.js';
import { parseContentPath } from './content-path.js';

/**
 * Two machines, one name (contract section 11): the same key imported on two machines lets both publish. The
 * rules, pure: a publish never uses a sequence lower than or equal to one already seen, and a record from
 * elsewhere that is newer than the name's own is a conflict that a sync folder shows rather than overwrites.
 */

/** What a record says, for these rules: its sequence and what it points at (`/ipfs/<cid>`, or a bare CID). */
export interface RecordFacts {
  seq: number;
  value: string;
}

/** The highest sequence this Pinfold can sign: the names row keeps it as a JavaScript number. */
export const MAX_PUBLISHABLE_SEQ = Number.MAX_SAFE_INTEGER;

/**
 * What to do when the name has a conflict: `stop` (a sync folder: nothing published, the conflict shown) or
 * `publish` (the user said "publish mine anyway", or the plain `name/publish` API, whose caller asked for exactly
 * this record): over it, with a sequence above every one seen.
 */
export type OnConflict = 'stop' | 'publish';

export type PublishDecision<S extends RecordFacts = RecordFacts> = { kind: 'publish'; seq: number } | { kind: 'conflict'; seen: S };

/**
 * The same target either way: the names row keeps a bare CID as given, a record its value path with the CID as
 * the ipns package writes it (CIDv1), so CIDs compare by codec and multihash.
 */
export function sameValue(a: string, b: string): boolean {
  if (a === b) return true;
  const left = parseContentPath(a.startsWith('/') ? a : `/ipfs/${a}`);
  const right = parseContentPath(b.startsWith('/') ? b : `/ipfs/${b}`);
  if (left === undefined || right === undefined || left.rest !== right.rest) return false;
  if (left.namespace === 'ipfs' && right.namespace === 'ipfs') {
    return left.cid.code === right.cid.code && equals(left.cid.multihash.bytes, right.cid.multihash.bytes);
  }
  return left.namespace === 'ipns' && right.namespace === 'ipns' && left.target === right.target;
}

/**
 * Whether `seen` (a record found elsewhere) is newer than the name's own record `held`: a higher sequence, or
 * the same sequence pointing elsewhere (another machine signed that sequence too). A lower one is an old
 * record the network still keeps; the same one with the same value is the name's own.
 */
export function isConflict<S extends RecordFacts>(held: RecordFacts, seen: S | null): seen is S {
  if (seen === null) return false;
  return seen.seq > held.seq || (seen.seq === held.seq && !sameValue(seen.value, held.value));
}

/**
 * The sequence of the next record of a name whose own record is `held`, given the newest record seen elsewhere
 * (`seen`): one above both, so no reader prefers an older record to it. A conflict stops the publish when
 * `onConflict` says so.
 */
export function decidePublish<S extends RecordFacts>(held: RecordFacts, seen: S | null, onConflict: OnConflict): PublishDecision<S> {
  if (isConflict(held, seen) && onConflict === 'stop') return { kind: 'conflict', seen };
  const seq = Math.max(held.seq, seen?.seq ?? 0) + 1;
  if (seq > MAX_PUBLISHABLE_SEQ)
    throw new ConflictError(`the name's sequence is at ${seq - 1}, the highest this Pinfold can sign: no newer record can be published`);
  return { kind: 'publish', seq };
}

/**
 * Of the records found elsewhere (verified), the one to keep as seen: the highest sequence, and only when it
 * conflicts with the name's own record (an older record, or the name's own, is nothing to keep); with its facts
 * as kept. A sequence past what this Pinfold can sign is kept as that highest one: still newer than anything
 * held here.
 */
export function newestForeign<T extends { seq: bigint; value: string }>(held: RecordFacts, found: readonly T[]): { facts: RecordFacts; found: T } | null {
  let newest: { facts: RecordFacts; found: T } | null = null;
  for (const record of found) {
    const facts = { seq: record.seq > BigInt(MAX_PUBLISHABLE_SEQ) ? MAX_PUBLISHABLE_SEQ : Number(record.seq), value: record.value };
    if (!isConflict(held, facts)) continue;
    if (newest === null || facts.seq > newest.facts.seq) newest = { facts, found: record };
  }
  return newest;
}
