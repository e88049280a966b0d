import { linkedSignal } from '../../base/linked-signal.js';

/**
 * A DAG fetch never gives up by itself (network/dag-fetch.ts asks again, round after round, while a source may
 * yet answer): right for a pin, which has its timeout. A followed folder must say why it is not updating
 * (issue 24: "the source offline: the folder shows why and retries"), so its fetch ends once no block has come
 * for `stallMs` (a source gone, without the blocks, or set aside for sending a wrong one), and the cycle fails
 * with that said; the policy's backoff tries again, keeping what was fetched.
 */
export class FetchStalledError extends Error {
  override readonly name = 'FetchStalledError';
}

/**
 * Runs `fetch` with a signal that also aborts after `stallMs` without `progressed()` being called; such an end
 * is a FetchStalledError saying `what`. An abort of `signal` itself stays an abort.
 */
export async function withStallLimit<T>(
  signal: AbortSignal,
  stallMs: number,
  what: string,
  fetch: (signal: AbortSignal, progressed: () => void) => Promise<T>,
): Promise<T> {
  const stalled = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const progressed = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => stalled.abort(), stallMs);
    timer.unref();
  };
  progressed();
  // Not AbortSignal.any: the composite is held weakly on Node 20 (base/linked-signal.ts).
  const linked = linkedSignal([signal, stalled.signal]);
  try {
    return await fetch(linked.signal, progressed);
  } catch (error) {
    if (stalled.signal.aborted && !signal.aborted) {
      throw new FetchStalledError(
        `no block of ${what} came from any source for ${Math.round(stallMs / 1000)} s (offline, without it, or sending wrong blocks)`,
      );
    }
    throw error;
  } finally {
    clearTimeout(timer);
    linked.dispose();
  }
}
