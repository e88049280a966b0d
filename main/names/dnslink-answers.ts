const MAX_DNS_CACHE_ENTRIES = 10_000;

/**
 * DNSLink answers (a value, or null for none) reused for `cacheMs` (0: none kept). Anyone can make the
 * gateway look up any domain: the cache is bounded, the oldest entry making room.
 */
export class DnsLinkAnswers {
  private readonly answers = new Map<string, { value: string | null; expiresMs: number }>();

  constructor(
    private readonly cacheMs: number,
    private readonly maxEntries = MAX_DNS_CACHE_ENTRIES,
  ) {}

  /** The answer kept for `domain` at `nowMs`; undefined when DNS is to be asked. */
  fresh(domain: string, nowMs: number): { value: string | null } | undefined {
    const cached = this.answers.get(domain);
    return cached !== undefined && cached.expiresMs > nowMs ? cached : undefined;
  }

  keep(domain: string, value: string | null, nowMs: number): void {
    if (this.cacheMs <= 0) return;
    if (this.answers.size >= this.maxEntries) this.answers.delete(this.answers.keys().next().value ?? '');
    this.answers.set(domain, { value, expiresMs: nowMs + this.cacheMs });
  }
}
