import type { AppError } from '../base/errors.js';
import type { ValidRecord } from './records.js';
import { directResolution, type Resolution } from './resolution.js';

/** Names held elsewhere cached in memory at most (anyone can make a public gateway look names up). */
const MAX_FOREIGN_ENTRIES = 10_000;
/** A record whose TTL is 0 (or missing) is reused this long, as the routing spec's default max-age. */
export const DEFAULT_RECORD_TTL_MS = 60_000;
/**
 * How long a name held elsewhere that could not be resolved (no record, none valid) stays so: the routing
 * spec's max-age for an answer without results.
 */
export const NEGATIVE_TTL_MS = 15_000;

/**
 * A cached answer for one key name, good until `freshUntilMs`: the end of validity for a name held here (the
 * store is the only source and every write here updates the cache), the record's TTL for a name held
 * elsewhere (the network may have a newer one by then).
 */
export type KeyEntry =
  | { ok: true; record: ValidRecord; owned: boolean; resolution: Resolution | undefined; freshUntilMs: number }
  | { ok: false; error: AppError; freshUntilMs: number };

export type KeyHit = KeyEntry & { ok: true };

export function keyHit(record: ValidRecord, owned: boolean, freshUntilMs: number): KeyHit {
  return { ok: true, record, owned, resolution: directResolution(record, owned), freshUntilMs };
}

/** A name held here: its record is good until the end of its validity (every write here updates the cache). */
export function ownedHit(record: ValidRecord): KeyHit {
  return keyHit(record, true, record.validUntilMs);
}

/** A name held elsewhere: its record is reused for its TTL (or the default), never past its validity. */
export function foreignHit(record: ValidRecord, nowMs: number): KeyHit {
  const ttlMs = record.ttlSeconds > 0 ? record.ttlSeconds * 1000 : DEFAULT_RECORD_TTL_MS;
  return keyHit(record, false, Math.min(nowMs + ttlMs, record.validUntilMs));
}

/** A cached entry still to use at `nowMs` (a refusal too, which the caller throws); undefined: load again. */
export function usableEntry(cached: KeyEntry | undefined, nowMs: number): KeyEntry | undefined {
  if (cached === undefined || cached.freshUntilMs <= nowMs) return undefined;
  return !cached.ok || cached.record.validUntilMs > nowMs ? cached : undefined;
}

/** The record of a name held elsewhere seen before and still valid: it competes with the network's. */
export function seenForeign(previous: KeyEntry | undefined, nowMs: number): ValidRecord | undefined {
  return previous?.ok === true && !previous.owned && previous.record.validUntilMs > nowMs ? previous.record : undefined;
}

/** The cached answers by canonical key name; names held elsewhere are bounded, the oldest making room. */
export class KeyCache {
  private readonly keys = new Map<string, KeyEntry>();

  constructor(private readonly maxForeign = MAX_FOREIGN_ENTRIES) {}

  get(name: string): KeyEntry | undefined {
    return this.keys.get(name);
  }

  /** A canonical name whose record points straight at content, fresh at `nowMs`: its resolution. */
  peek(name: string, nowMs: number): Resolution | undefined {
    const hit = this.keys.get(name);
    return hit?.ok === true && hit.resolution !== undefined && hit.freshUntilMs > nowMs ? hit.resolution : undefined;
  }

  set(name: string, entry: KeyEntry, owned: boolean): void {
    // A name held here is read again at need: only names held elsewhere count against the bound.
    if (!owned && !this.keys.has(name) && this.keys.size >= this.maxForeign) this.keys.delete(this.keys.keys().next().value ?? '');
    this.keys.set(name, entry);
  }

  delete(name: string): void {
    this.keys.delete(name);
  }

  clear(): void {
    this.keys.clear();
  }
}
