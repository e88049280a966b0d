import type { CID } from 'multiformats/cid';
import type { Clock } from '../base/clock.js';
import { BadInputError, LoopDetectedError, NotFoundError } from '../base/errors.js';
import type { NamesRepository } from '../store/repositories/names.js';
import { joinRest, normalizeDomain, parseContentPath, type ContentPath } from './content-path.js';
import { lookupDnsLink, type TxtLookup } from './dnslink.js';
import { tryParseIpnsName } from './name-parse.js';
import { InvalidRecordError, validateRecord, type ValidRecord } from './records.js';

/** Contract section 7: DNSLink (and IPNS pointing at IPNS) resolves recursively, at most 32 steps. */
export const MAX_RESOLVE_STEPS = 32;
const MAX_DNS_CACHE_ENTRIES = 10_000;

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
}

export interface NameResolverInit {
  /** The store's (autocommit) names: a cache miss reads the owned name's record, else a routing record. */
  names: NamesRepository;
  clock: Clock;
  txt: TxtLookup;
  /** How long a DNSLink answer (or its absence) is reused; default 60 s, 0 = ask DNS every time. */
  dnsCacheSeconds?: number;
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
}

type KeyEntry = { ok: true; record: ValidRecord; resolution: Resolution | undefined } | { ok: false; error: InvalidRecordError };

/**
 * Records are validated once (signature included) when they enter the cache, then served from a Map; each
 * hit costs one expiry comparison. Our own publishes go through {@link NameResolver.remember}, so the cache is
 * never behind the database for names this process writes.
 */
export function createNameResolver(init: NameResolverInit): NameResolver {
  const keys = new Map<string, KeyEntry>();
  const dns = new Map<string, { value: string | null; expiresMs: number }>();
  const dnsCacheMs = (init.dnsCacheSeconds ?? 60) * 1000;

  const entryFor = (record: ValidRecord): KeyEntry => {
    const target = record.target;
    const resolution: Resolution | undefined =
      target.namespace === 'ipfs'
        ? { name: record.name, kind: 'ipns', value: record.value, cid: target.cid, path: target.rest, ttlSeconds: record.ttlSeconds, record: record.bytes }
        : undefined;
    return { ok: true, record, resolution };
  };

  async function keyRecord(name: string): Promise<ValidRecord> {
    const now = init.clock.nowMs();
    const cached = keys.get(name);
    if (cached !== undefined) {
      if (!cached.ok) throw cached.error;
      if (cached.record.validUntilMs > now) return cached.record;
      keys.delete(name);
    }
    const bytes = (await init.names.nameByName(name))?.record ?? (await init.names.routingRecord(name));
    if (bytes === null) throw new NotFoundError(`IPNS name ${name} not found`);
    const parsed = tryParseIpnsName(name);
    if (parsed === undefined) throw new BadInputError(`name ${name} is not an IPNS name`);
    try {
      const record = await validateRecord(parsed, new Uint8Array(bytes), now);
      keys.set(name, entryFor(record));
      return record;
    } catch (error) {
      if (error instanceof InvalidRecordError) keys.set(name, { ok: false, error });
      throw error;
    }
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
        const record = await keyRecord(current);
        value = record.value;
        target = record.target;
        ttlSeconds = ttlSeconds === undefined ? record.ttlSeconds : Math.min(ttlSeconds, record.ttlSeconds);
        if (step === 1) firstRecord = record.bytes;
      } else {
        value = await dnsLink(current);
        target = parseContentPath(value);
      }
      firstValue ??= value;
      if (target === undefined) throw new NotFoundError(`${current} points at ${value}, which is not a content path`);
      suffix = joinRest(target.rest, suffix);
      if (target.namespace === 'ipfs') {
        return { name: asked, kind, value: firstValue, cid: target.cid, path: suffix, ttlSeconds, record: firstRecord };
      }
      current = target.target;
      currentIsKey = tryParseIpnsName(current) !== undefined;
    }
    throw new LoopDetectedError(`could not resolve ${asked}: more than ${MAX_RESOLVE_STEPS} steps of DNSLink or IPNS names`);
  }

  // Fast path: a canonical name whose record points straight at content is one Map lookup.
  function peek(name: string): Resolution | undefined {
    const hit = keys.get(name);
    return hit?.ok === true && hit.resolution !== undefined && hit.record.validUntilMs > init.clock.nowMs() ? hit.resolution : undefined;
  }

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
      keys.set(record.name, entryFor(record));
    },
    forget(name) {
      keys.delete(name);
    },
    forgetAll() {
      keys.clear();
    },
  };
}

/** The gateway's entry point: `/ipns/{name}` → content root, path and cache lifetime. */
export function resolveName(ctx: { resolver: NameResolver }, nameOrDomain: string): Promise<Resolution> {
  return ctx.resolver.resolve(nameOrDomain);
}
