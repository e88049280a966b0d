import { CID } from 'multiformats/cid';
import type { Clock } from '../base/clock.js';
import { BadInputError, LoopDetectedError, NotFoundError, type AppError } from '../base/errors.js';
import { createKeyedLock, type KeyedLock } from '../base/keyed-lock.js';
import { silentLogger, type Logger } from '../base/logger.js';
import type { NameRecordSources } from '../network/name-records.js';
import type { NamesRepository } from '../store/repositories/names.js';
import { joinRest, normalizeDomain, parseContentPath, type ContentPath } from './content-path.js';
import { lookupDnsLink, type TxtLookup } from './dnslink.js';
import { LIBP2P_KEY_CODEC, tryParseIpnsName, type IpnsName } from './name-parse.js';
import { isNewerRecord, keepNewerRecord } from './record-store.js';
import { InvalidRecordError, validateRecord, type ValidRecord } from './records.js';

/** Contract section 7: DNSLink (and IPNS pointing at IPNS) resolves recursively, at most 32 steps. */
export const MAX_RESOLVE_STEPS = 32;
const MAX_DNS_CACHE_ENTRIES = 10_000;
/** Names held elsewhere cached in memory at most (anyone can make a public gateway look names up). */
const MAX_FOREIGN_ENTRIES = 10_000;
/** A record whose TTL is 0 (or missing) is reused this long, as the routing spec's default max-age. */
export const DEFAULT_RECORD_TTL_MS = 60_000;
/**
 * How long a name held elsewhere that could not be resolved (no record, none valid) stays so: the routing
 * spec's max-age for an answer without results.
 */
export const NEGATIVE_TTL_MS = 15_000;

/** Shared between callers (the cache hands out the same object): read-only. */
export interface Resolution {
  /** What was asked, normalized: the canonical key name, or the lower-case domain. */
  readonly name: string;
  readonly kind: 'ipns' | 'dnslink';
  /** The first hop's value: the record value (`/ipfs/...`) or the DNSLink value. */
  readonly value: string;
  /** Content root the name leads to, and the path below it ('' or `/a/b`) that the chain added. */
  readonly cid: CID;
  readonly path: string;
  /** Smallest record TTL along the chain; undefined when no hop had one (DNSLink only: TXT TTLs are not exposed). */
  readonly ttlSeconds: number | undefined;
  /** The signed record of the asked name (for `?format=ipns-record`); undefined for DNSLink names. */
  readonly record: Uint8Array | undefined;
  /** That record's sequence number; undefined for DNSLink names. */
  readonly sequence: bigint | undefined;
  /**
   * Every IPNS name on the way is held here (an account's own). False when a record came from elsewhere (the
   * network, or a routing record): the content may then be missing, and the gateway fetches it.
   */
  readonly held: boolean;
}

export interface NameResolverInit {
  /** The store's (autocommit) names: a cache miss reads the owned name's record, else a routing record. */
  names: NamesRepository;
  clock: Clock;
  txt: TxtLookup;
  /** How long a DNSLink answer (or its absence) is reused; default 60 s, 0 = ask DNS every time. */
  dnsCacheSeconds?: number;
  /**
   * Where records of names held elsewhere come from besides the store (contract section 11: the routing
   * endpoints and the fetch sources); absent, only the store's routing records.
   */
  network?: Pick<NameRecordSources, 'records'>;
  /** The names' lock, under which a record of a name held elsewhere is kept (record-store.ts); default its own. */
  nameLock?: KeyedLock;
  /** The most records of names held elsewhere kept in the store. */
  maxStoredRecords?: number;
  logger?: Logger;
}

export interface NameResolver {
  /** Resolves a key name (any accepted form) or a DNSLink domain. 400 for text that is neither, 404 unknown. */
  resolve(nameOrDomain: string): Promise<Resolution>;
  /**
   * The cached resolution of a canonical key name whose valid record points straight at content, without a
   * promise (the gateway's common case: a promise and its microtask turn cost /ipns a tenth of its rate);
   * undefined when resolving it needs {@link resolve}.
   */
  peek(name: string): Resolution | undefined;
  /** Puts a record we just signed (and validated) into the cache: a publish is visible at once. */
  remember(record: ValidRecord): void;
  /** Drops a name from the cache (removed, or its stored record replaced). */
  forget(name: string): void;
  /** Drops every cached record (another instance's changes may have been missed); DNSLink answers stay. */
  forgetAll(): void;
  /**
   * Settles at the next change of the canonical key name's record here (a publish, a republish, a record put
   * or dropped: whatever goes through {@link remember} or {@link forget}), or when `signal` ends. The served
   * long-poll of a record (`X-Pinfold-Wait`, issue 24) waits on it.
   */
  nextChange(name: string, signal: AbortSignal): Promise<void>;
}

/**
 * A cached answer for one key name, good until `freshUntilMs`: the end of validity for a name held here (the
 * store is the only source and every write here updates the cache), the record's TTL for a name held
 * elsewhere (the network may have a newer one by then).
 */
type KeyEntry =
  | { ok: true; record: ValidRecord; owned: boolean; resolution: Resolution | undefined; freshUntilMs: number }
  | { ok: false; error: AppError; freshUntilMs: number };

/**
 * Records are validated once (signature included) when they enter the cache, then served from a Map; each
 * hit costs one expiry comparison. Our own publishes go through {@link NameResolver.remember}, so the cache is
 * never behind the database for names this process writes.
 *
 * A name no account here holds (contract section 11) is resolved from every record at hand: the one the
 * store keeps (put by the operator or a PUT to the served routing API, or kept from an earlier lookup), the
 * one cached, and those the network answers, each verified; the highest sequence wins, so a record older
 * than one already seen is never used. The winner is kept in the store and cached for its TTL.
 */
export function createNameResolver(init: NameResolverInit): NameResolver {
  const keys = new Map<string, KeyEntry>();
  const loading = new Map<string, Promise<KeyEntry & { ok: true }>>();
  const dns = new Map<string, { value: string | null; expiresMs: number }>();
  const dnsCacheMs = (init.dnsCacheSeconds ?? 60) * 1000;
  const logger = init.logger ?? silentLogger;
  const nameLock = init.nameLock ?? createKeyedLock();

  const entryFor = (record: ValidRecord, owned: boolean, freshUntilMs: number): KeyEntry & { ok: true } => {
    const target = record.target;
    const resolution: Resolution | undefined =
      target.namespace === 'ipfs'
        ? {
            name: record.name,
            kind: 'ipns',
            value: record.value,
            cid: target.cid,
            path: target.rest,
            ttlSeconds: record.ttlSeconds,
            record: record.bytes,
            sequence: record.sequence,
            held: owned,
          }
        : undefined;
    return { ok: true, record, owned, resolution, freshUntilMs };
  };

  const cache = (name: string, entry: KeyEntry, owned: boolean): void => {
    // Names held elsewhere are bounded: the oldest entry makes room (a name held here is read again at need).
    if (!owned && !keys.has(name) && keys.size >= MAX_FOREIGN_ENTRIES) keys.delete(keys.keys().next().value ?? '');
    keys.set(name, entry);
  };

  async function keyRecord(name: string): Promise<KeyEntry & { ok: true }> {
    const now = init.clock.nowMs();
    const cached = keys.get(name);
    if (cached !== undefined && cached.freshUntilMs > now) {
      if (!cached.ok) throw cached.error;
      if (cached.record.validUntilMs > now) return cached;
    }
    let pending = loading.get(name);
    if (pending === undefined) {
      pending = load(name, cached).finally(() => loading.delete(name));
      loading.set(name, pending);
    }
    return pending;
  }

  async function load(name: string, previous: KeyEntry | undefined): Promise<KeyEntry & { ok: true }> {
    const parsed = tryParseIpnsName(name);
    if (parsed === undefined) throw new BadInputError(`name ${name} is not an IPNS name`);
    const now = init.clock.nowMs();
    const row = await init.names.nameByName(name);
    if (row !== null) {
      try {
        const record = await validateRecord(parsed, new Uint8Array(row.record), now);
        const entry = entryFor(record, true, record.validUntilMs);
        cache(name, entry, true);
        return entry;
      } catch (error) {
        if (error instanceof InvalidRecordError) cache(name, { ok: false, error, freshUntilMs: Infinity }, true);
        throw error;
      }
    }
    const seen = previous?.ok === true && !previous.owned && previous.record.validUntilMs > now ? previous.record : undefined;
    try {
      const record = await foreignRecord(parsed, seen, now);
      const ttlMs = record.ttlSeconds > 0 ? record.ttlSeconds * 1000 : DEFAULT_RECORD_TTL_MS;
      const entry = entryFor(record, false, Math.min(now + ttlMs, record.validUntilMs));
      cache(name, entry, false);
      return entry;
    } catch (error) {
      if (error instanceof InvalidRecordError || error instanceof NotFoundError) cache(name, { ok: false, error, freshUntilMs: now + NEGATIVE_TTL_MS }, false);
      throw error;
    }
  }

  /** The best valid record of a name held elsewhere: the store's, the one seen before, the network's. */
  async function foreignRecord(parsed: IpnsName, seen: ValidRecord | undefined, now: number): Promise<ValidRecord> {
    const stored = await init.names.routingRecord(parsed.name);
    let storedFault: InvalidRecordError | undefined;
    const candidates: ValidRecord[] = seen ? [seen] : [];
    if (stored !== null) {
      try {
        candidates.push(await validateRecord(parsed, new Uint8Array(stored), now));
      } catch (error) {
        if (!(error instanceof InvalidRecordError)) throw error;
        storedFault = error;
      }
    }
    const fetched = (await init.network?.records(CID.createV1(LIBP2P_KEY_CODEC, parsed.multihash))) ?? [];
    let fromNetwork: ValidRecord | undefined;
    for (const { bytes } of fetched) {
      try {
        const record = await validateRecord(parsed, bytes, now);
        candidates.push(record);
        if (fromNetwork === undefined || isNewerRecord(record, fromNetwork)) fromNetwork = record;
      } catch (error) {
        if (!(error instanceof InvalidRecordError)) throw error;
        // Someone answered a record that does not verify: it is dropped, never used.
        logger.warn('an IPNS record from the network was refused', { name: parsed.name, reason: error.reason });
      }
    }
    let best: ValidRecord | undefined;
    for (const record of candidates) if (best === undefined || isNewerRecord(record, best)) best = record;
    if (best === undefined) {
      // A broken stored record is an error of this node (5xx), as before anything was asked of the network.
      if (storedFault !== undefined) throw storedFault;
      throw new NotFoundError(`IPNS name ${parsed.name} not found`);
    }
    if (best === fromNetwork) {
      const outcome = await keepNewerRecord({ names: init.names, nameLock, maxStoredRecords: init.maxStoredRecords }, parsed, best, now);
      if (outcome === 'older') {
        // A newer record was kept meanwhile (a PUT to the served routing API): that one wins.
        const kept = await init.names.routingRecord(parsed.name);
        if (kept !== null) return validateRecord(parsed, new Uint8Array(kept), now);
      }
    }
    return best;
  }

  async function dnsLink(domain: string): Promise<string> {
    const now = init.clock.nowMs();
    const cached = dns.get(domain);
    let value: string | null;
    if (cached !== undefined && cached.expiresMs > now) {
      value = cached.value;
    } else {
      value = await lookupDnsLink(init.txt, domain);
      if (dnsCacheMs > 0) {
        // Anyone can make the gateway look up any domain: bound the cache, dropping the oldest entry.
        if (dns.size >= MAX_DNS_CACHE_ENTRIES) dns.delete(dns.keys().next().value ?? '');
        dns.set(domain, { value, expiresMs: now + dnsCacheMs });
      }
    }
    if (value === null) throw new NotFoundError(`no DNSLink record for ${domain}`);
    return value;
  }

  async function resolveChain(asked: string, kind: 'ipns' | 'dnslink'): Promise<Resolution> {
    let current = asked;
    let currentIsKey = kind === 'ipns';
    let suffix = '';
    let ttlSeconds: number | undefined;
    let firstValue: string | undefined;
    let firstRecord: Uint8Array | undefined;
    let firstSequence: bigint | undefined;
    let held = true;
    // Names are canonical here (key names in base36, domains lower-case), so a loop is a name seen twice.
    const passed: string[] = [];
    for (let step = 1; step <= MAX_RESOLVE_STEPS; step++) {
      if (passed.includes(current)) {
        throw new LoopDetectedError(`could not resolve ${asked}: ${[...passed, current].join(' -> ')} is a DNSLink or IPNS loop`);
      }
      passed.push(current);
      let value: string;
      let target: ContentPath | undefined;
      if (currentIsKey) {
        const entry = await keyRecord(current);
        const record = entry.record;
        held &&= entry.owned;
        value = record.value;
        target = record.target;
        ttlSeconds = ttlSeconds === undefined ? record.ttlSeconds : Math.min(ttlSeconds, record.ttlSeconds);
        if (step === 1) {
          firstRecord = record.bytes;
          firstSequence = record.sequence;
        }
      } else {
        value = await dnsLink(current);
        target = parseContentPath(value);
      }
      firstValue ??= value;
      if (target === undefined) throw new NotFoundError(`${current} points at ${value}, which is not a content path`);
      suffix = joinRest(target.rest, suffix);
      if (target.namespace === 'ipfs') {
        return { name: asked, kind, value: firstValue, cid: target.cid, path: suffix, ttlSeconds, record: firstRecord, sequence: firstSequence, held };
      }
      current = target.target;
      currentIsKey = tryParseIpnsName(current) !== undefined;
    }
    throw new LoopDetectedError(`could not resolve ${asked}: more than ${MAX_RESOLVE_STEPS} steps of DNSLink or IPNS names`);
  }

  // Fast path: a canonical name whose record points straight at content is one Map lookup.
  function peek(name: string): Resolution | undefined {
    const hit = keys.get(name);
    return hit?.ok === true && hit.resolution !== undefined && hit.freshUntilMs > init.clock.nowMs() ? hit.resolution : undefined;
  }

  // Who waits for a name's next change (the served long-poll): woken by remember and forget.
  const waiters = new Map<string, Set<() => void>>();
  const changed = (name: string): void => {
    const woken = waiters.get(name);
    waiters.delete(name);
    for (const wake of woken ?? []) wake();
  };

  return {
    peek,
    async resolve(nameOrDomain) {
      const hit = peek(nameOrDomain);
      if (hit !== undefined) return hit;
      const text = nameOrDomain.trim();
      const key = tryParseIpnsName(text);
      if (key !== undefined) return resolveChain(key.name, 'ipns');
      const domain = normalizeDomain(text);
      if (domain === undefined) throw new BadInputError('name is neither an IPNS name nor a DNS name');
      return resolveChain(domain, 'dnslink');
    },
    remember(record) {
      keys.set(record.name, entryFor(record, true, record.validUntilMs));
      changed(record.name);
    },
    forget(name) {
      keys.delete(name);
      changed(name);
    },
    forgetAll() {
      keys.clear();
      for (const name of [...waiters.keys()]) changed(name);
    },
    nextChange(name, signal) {
      return new Promise<void>((resolve) => {
        if (signal.aborted) return resolve();
        const set = waiters.get(name) ?? new Set<() => void>();
        waiters.set(name, set);
        const wake = (): void => {
          signal.removeEventListener('abort', aborted);
          resolve();
        };
        const aborted = (): void => {
          set.delete(wake);
          if (set.size === 0 && waiters.get(name) === set) waiters.delete(name);
          resolve();
        };
        set.add(wake);
        signal.addEventListener('abort', aborted, { once: true });
      });
    },
  };
}

/** The gateway's entry point: `/ipns/{name}` → content root, path and cache lifetime. */
export function resolveName(ctx: { resolver: NameResolver }, nameOrDomain: string): Promise<Resolution> {
  return ctx.resolver.resolve(nameOrDomain);
}
