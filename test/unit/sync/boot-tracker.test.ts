import { describe, expect, it } from 'vitest';
import { BootTracker } from '../../../main/sync/boot-tracker.js';

describe("a folder runner's boot tracker", () => {
  it('answers the effects of each boot event and moves its generation with boots, halts and stop', () => {
    const boot = new BootTracker();
    expect(boot.generation).toBe(0);
    expect(boot.advance({ type: 'boot-asked' })).toEqual([{ type: 'halt' }]);
    expect(boot.generation).toBe(1);
    expect(boot.advance({ type: 'halted' })).toEqual([{ type: 'show-scanning' }, { type: 'check-root' }]);
    expect(boot.advance({ type: 'halt-asked' })).toEqual([{ type: 'halt' }]);
    expect(boot.generation).toBe(2);
    expect(boot.stopped).toBe(false);
    expect(boot.advance({ type: 'stop-asked' })).toEqual([]);
    expect(boot).toMatchObject({ generation: 3, stopped: true });
  });

  it('tells work of the boot under way from stale work', () => {
    const boot = new BootTracker();
    boot.advance({ type: 'boot-asked' });
    expect(boot.current(1)).toBe(true);
    boot.advance({ type: 'halt-asked' });
    expect(boot.current(1)).toBe(false);
    expect(boot.current(2)).toBe(true);
  });

  it("routes the watcher's events: buffered while the first scan runs, pushed after, dropped once stale", () => {
    const boot = new BootTracker();
    for (const event of [{ type: 'boot-asked' }, { type: 'halted' }, { type: 'root-checked', ok: true }] as const) boot.advance(event);
    boot.advance({ type: 'journal-recovered', gen: 1, outcome: 'none' });
    expect(boot.route(1)).toBe('buffer');
    boot.advance({ type: 'scanned', gen: 1 });
    boot.advance({ type: 'scan-queued', batchWaiting: false, rootless: false });
    expect(boot.route(1)).toBe('push');
    expect(boot.route(0)).toBe('drop');
  });
});
