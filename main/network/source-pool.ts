import type { FetchTuning } from './fetch-tuning.js';
import { GatewaySource } from './gateway-source.js';

/** Sources remembered at most; beyond it, those with nothing to remember (healthy, idle) are forgotten. */
const MAX_REMEMBERED = 1024;

/**
 * Every source a fetch has used, by URL, shared by all fetches: a source set aside by one fetch is set aside
 * for all, and its request slots are counted across them. Tells its listeners when a slot frees up or the
 * set of sources may have changed (new settings, a provider found), so a waiting fetch looks again.
 */
export class SourcePool {
  private readonly sources = new Map<string, GatewaySource>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly tuning: FetchTuning,
    private readonly maxBlockBytes: number,
  ) {}

  source(url: string): GatewaySource {
    let source = this.sources.get(url);
    if (source === undefined) {
      if (this.sources.size >= MAX_REMEMBERED) this.forgetIdle();
      source = new GatewaySource(url, this.tuning, this.maxBlockBytes, () => this.changed());
      this.sources.set(url, source);
    }
    return source;
  }

  /** The sources of these URLs, each once, in order. */
  sourcesFor(urls: Iterable<string>): GatewaySource[] {
    const out: GatewaySource[] = [];
    const seen = new Set<string>();
    for (const url of urls) {
      if (seen.has(url)) continue;
      seen.add(url);
      out.push(this.source(url));
    }
    return out;
  }

  /** Called when a slot frees up or the sources may have changed. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(): void {
    for (const listener of [...this.listeners]) listener();
  }

  private forgetIdle(): void {
    for (const [url, source] of this.sources) {
      if (source.inFlight === 0 && source.health.state() === 'ready') this.sources.delete(url);
    }
  }
}
