import type { Clock } from '../base/clock.js';
import { BadInputError, NotFoundError } from '../base/errors.js';
import { createKeyedLock, type KeyedLock } from '../base/keyed-lock.js';
import { silentLogger, type Logger } from '../base/logger.js';
import type { NameRecordSources } from '../network/name-records.js';
import type { NamesRepository } from '../store/repositories/names.js';
import { ChangeWaiters } from './change-waiters.js';
import { normalizeDomain } from './content-path.js';
import { DnsLinkAnswers } from './dnslink-answers.js';
import { lookupDnsLink, type TxtLookup } from './dnslink.js';
import { foreignRecord, type ForeignRecordDeps } from './foreign-record.js';
import { foreignHit, KeyCache, NEGATIVE_TTL_MS, ownedHit, seenForeign, usableEntry, type KeyEntry, type KeyHit } from './key-cache.js';
import { tryParseIpnsName, type IpnsName } from './name-parse.js';
import { InvalidRecordError, validateRecord, type ValidRecord } from './records.js';
import { resolveChain } from './resolve-chain.js';
import type { Resolution } from './resolution.js';

export { DEFAULT_RECORD_TTL_MS, NEGATIVE_TTL_MS } from './key-cache.js';
export { MAX_RESOLVE_STEPS } from './resolve-chain.js';
export type { Resolution } from './resolution.js';

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
 * Records are validated once (signature included) when they enter the cache (key-cache.ts), then served from
 * a Map; each hit costs one expiry comparison. Our own publishes go through {@link NameResolver.remember}, so
 * the cache is never behind the database for names this process writes.
 *
 * A name no account here holds (contract section 11) is resolved from every record at hand (foreign-record.ts):
 * the one the store keeps (put by the operator or a PUT to the served routing API, or kept from an earlier
 * lookup), the one cached, and those the network answers, each verified; the highest sequence wins, so a
 * record older than one already seen is never used. The winner is kept in the store and cached for its TTL.
 */
export function createNameResolver(init: NameResolverInit): NameResolver {
  return new CachingNameResolver(init);
}

class CachingNameResolver implements NameResolver {
  private readonly keys = new KeyCache();
  /** Loads under way, by name: callers asking meanwhile share one. */
  private readonly loading = new Map<string, Promise<KeyHit>>();
  private readonly dns: DnsLinkAnswers;
  private readonly foreign: ForeignRecordDeps;
  private readonly waiters = new ChangeWaiters();
  private readonly hops = { key: (name: string) => this.keyRecord(name), dnsLink: (domain: string) => this.dnsLink(domain) };

  constructor(private readonly init: NameResolverInit) {
    this.dns = new DnsLinkAnswers((init.dnsCacheSeconds ?? 60) * 1000);
    const { names, network, maxStoredRecords } = init;
    this.foreign = { names, nameLock: init.nameLock ?? createKeyedLock(), logger: init.logger ?? silentLogger, maxStoredRecords };
    if (network !== undefined) this.foreign.network = network;
  }

  // Fast path: a canonical name whose record points straight at content is one Map lookup.
  readonly peek = (name: string): Resolution | undefined => this.keys.peek(name, this.init.clock.nowMs());

  async resolve(nameOrDomain: string): Promise<Resolution> {
    const hit = this.peek(nameOrDomain);
    if (hit !== undefined) return hit;
    const text = nameOrDomain.trim();
    const key = tryParseIpnsName(text);
    if (key !== undefined) return resolveChain(this.hops, key.name, 'ipns');
    const domain = normalizeDomain(text);
    if (domain === undefined) throw new BadInputError('name is neither an IPNS name nor a DNS name');
    return resolveChain(this.hops, domain, 'dnslink');
  }

  remember(record: ValidRecord): void {
    this.keys.set(record.name, ownedHit(record), true);
    this.waiters.wake(record.name);
  }

  forget(name: string): void {
    this.keys.delete(name);
    this.waiters.wake(name);
  }

  forgetAll(): void {
    this.keys.clear();
    this.waiters.wakeAll();
  }

  nextChange(name: string, signal: AbortSignal): Promise<void> {
    return this.waiters.next(name, signal);
  }

  private async keyRecord(name: string): Promise<KeyHit> {
    const cached = this.keys.get(name);
    const usable = usableEntry(cached, this.init.clock.nowMs());
    if (usable !== undefined) {
      if (!usable.ok) throw usable.error;
      return usable;
    }
    let pending = this.loading.get(name);
    if (pending === undefined) {
      pending = this.load(name, cached).finally(() => this.loading.delete(name));
      this.loading.set(name, pending);
    }
    return pending;
  }

  /** The name's record: its own when an account here holds it, else the best one held elsewhere. */
  private async load(name: string, previous: KeyEntry | undefined): Promise<KeyHit> {
    const parsed = tryParseIpnsName(name);
    if (parsed === undefined) throw new BadInputError(`name ${name} is not an IPNS name`);
    const now = this.init.clock.nowMs();
    const row = await this.init.names.nameByName(name);
    if (row !== null) return this.loadOwned(name, parsed, new Uint8Array(row.record), now);
    return this.loadForeign(name, parsed, seenForeign(previous, now), now);
  }

  private async loadOwned(name: string, parsed: IpnsName, bytes: Uint8Array, now: number): Promise<KeyHit> {
    try {
      const entry = ownedHit(await validateRecord(parsed, bytes, now));
      this.keys.set(name, entry, true);
      return entry;
    } catch (error) {
      // Refused until its record changes (a write here updates the cache).
      if (error instanceof InvalidRecordError) this.keys.set(name, { ok: false, error, freshUntilMs: Infinity }, true);
      throw error;
    }
  }

  private async loadForeign(name: string, parsed: IpnsName, seen: ValidRecord | undefined, now: number): Promise<KeyHit> {
    try {
      const entry = foreignHit(await foreignRecord(this.foreign, parsed, seen, now), now);
      this.keys.set(name, entry, false);
      return entry;
    } catch (error) {
      if (error instanceof InvalidRecordError || error instanceof NotFoundError) {
        this.keys.set(name, { ok: false, error, freshUntilMs: now + NEGATIVE_TTL_MS }, false);
      }
      throw error;
    }
  }

  private async dnsLink(domain: string): Promise<string> {
    const now = this.init.clock.nowMs();
    let answer = this.dns.fresh(domain, now);
    if (answer === undefined) {
      answer = { value: await lookupDnsLink(this.init.txt, domain) };
      this.dns.keep(domain, answer.value, now);
    }
    if (answer.value === null) throw new NotFoundError(`no DNSLink record for ${domain}`);
    return answer.value;
  }
}

/** The gateway's entry point: `/ipns/{name}` → content root, path and cache lifetime. */
export function resolveName(ctx: { resolver: NameResolver }, nameOrDomain: string): Promise<Resolution> {
  return ctx.resolver.resolve(nameOrDomain);
}
