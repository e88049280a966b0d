import type { PinStatus } from '../../shared/api-types.js';

/** A pin's status as the IPFS Pinning Service API names it (spec 1.0.0, `Status`). */
export type PsaStatus = 'queued' | 'pinning' | 'pinned' | 'failed';

export const PSA_STATUSES: readonly PsaStatus[] = ['queued', 'pinning', 'pinned', 'failed'];

/**
 * Contract section 11: `pinning` is `queued` until the pin's fetch has heard from a source, then `pinning`;
 * `pinned` is `pinned`; `failure` is `failed`; an `unpinning` pin is gone from the PSA (null).
 */
export function psaStatusOf(status: PinStatus, fetchStarted: boolean): PsaStatus | null {
  if (status === 'pinning') return fetchStarted ? 'pinning' : 'queued';
  if (status === 'pinned') return 'pinned';
  if (status === 'failure') return 'failed';
  return null;
}

/** The pin statuses whose pins may show as one of `wanted` (both `queued` and `pinning` are `pinning` pins). */
export function pinStatusesFor(wanted: readonly PsaStatus[]): PinStatus[] {
  const statuses = new Set<PinStatus>();
  for (const status of wanted) statuses.add(status === 'queued' || status === 'pinning' ? 'pinning' : status === 'pinned' ? 'pinned' : 'failure');
  return [...statuses];
}
