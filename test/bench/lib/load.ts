import { createRequire } from 'node:module';

/** The part of autocannon's API the benchmarks use (it ships no types). */
export interface Histogram {
  average: number;
  p50: number;
  p99: number;
  total: number;
}

export interface CannonResult {
  requests: Histogram;
  latency: Histogram;
  non2xx: number;
  errors: number;
  timeouts: number;
}

export interface CannonOptions {
  url: string;
  connections: number;
  duration: number;
  workers?: number;
  headers?: Record<string, string>;
  requests?: Array<{ method: string; path: string; headers?: Record<string, string> }>;
}

const autocannon = createRequire(import.meta.url)('autocannon') as (options: CannonOptions) => Promise<CannonResult>;

/** One load run; any failed answer voids the measurement rather than flattering it. */
export async function measure(label: string, options: CannonOptions): Promise<CannonResult> {
  const result = await autocannon(options);
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0)
    throw new Error(`${label}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts; the measurement is void`);
  return result;
}
