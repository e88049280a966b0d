import { describe, expect, it } from 'vitest';
import { createCoalescer, type RawEvent } from '../../../main/sync/coalescer.js';
import { queueScanEvents, takeFirstBatch } from '../../../main/sync/scan-events.js';

const stat = (n: number): Pick<RawEvent, 'size' | 'mtimeMs' | 'ino'> => ({ size: n, mtimeMs: n, ino: n });

describe("a scan's events in a folder runner's coalescer", () => {
  it('stamps every scan event with the time it was queued', () => {
    const coalescer = createCoalescer({ settleMs: 100, maxBatchMs: 1_000 });
    queueScanEvents(
      coalescer,
      [
        { kind: 'add', path: 'a.txt', at: 1, ...stat(1) },
        { kind: 'add', path: 'b.txt', at: 2, ...stat(2) },
      ],
      5_000,
    );
    expect(coalescer.pending).toBe(2);
    expect(coalescer.dueAt()).toBe(5_100);
  });

  it("takes the boot's first batch: the scan's events before the watcher's, whether settled or not", () => {
    const coalescer = createCoalescer({ settleMs: 100, maxBatchMs: 1_000 });
    // The scan found b.txt gone; the watcher saw it written again while the scan ran: a change, not a removal.
    const scanned: RawEvent[] = [{ kind: 'unlink', path: 'b.txt', at: 0, ...stat(1) }];
    const watched: RawEvent[] = [{ kind: 'add', path: 'b.txt', at: 4_000, ...stat(2) }];
    expect(takeFirstBatch(coalescer, scanned, watched, 5_000)).toEqual([{ type: 'change', kind: 'file', path: 'b.txt', ...stat(2) }]);
    expect(coalescer.pending).toBe(0);
  });

  it('answers no first batch when nothing changed', () => {
    expect(takeFirstBatch(createCoalescer(), [], [], 5_000)).toBeUndefined();
  });
});
