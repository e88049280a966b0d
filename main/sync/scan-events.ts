import type { Change, Coalescer, RawEvent } from './coalescer.js';

/**
 * How what a scan found enters a runner's coalescer: its events all stamped with one time, since it
 * found them at once; at boot, before what the watcher saw while the scan ran.
 */

/** Queues a scan's events, stamped `now`. */
export function queueScanEvents(coalescer: Coalescer, scanned: readonly RawEvent[], now: number): void {
  for (const event of scanned) coalescer.push({ ...event, at: now });
}

/**
 * A boot's first batch: the scan's events, then those the watcher saw during the scan (the order things
 * happened on disk), taken at once whether settled or not; undefined when nothing changed.
 */
export function takeFirstBatch(coalescer: Coalescer, scanned: readonly RawEvent[], watched: readonly RawEvent[], now: number): readonly Change[] | undefined {
  queueScanEvents(coalescer, scanned, now);
  for (const event of watched) coalescer.push(event);
  return coalescer.flush()?.changes;
}
