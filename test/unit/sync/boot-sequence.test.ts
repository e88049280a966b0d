import { describe, expect, it } from 'vitest';
import { INITIAL_BOOT_STATE, routeWatcherEvent, stepBoot, type BootEffect, type BootEvent, type BootState } from '../../../main/sync/boot-sequence.js';

/** Feeds events in order, collecting the effects each asks for. */
function run(events: readonly BootEvent[], from: BootState = INITIAL_BOOT_STATE): { state: BootState; effects: BootEffect['type'][][] } {
  let state = from;
  const effects: BootEffect['type'][][] = [];
  for (const event of events) {
    const next = stepBoot(state, event);
    state = next.state;
    effects.push(next.effects.map((e) => e.type));
  }
  return { state, effects };
}

/** The state right after a boot's halt is done (generation 1, checking the root). */
const halted = (): BootState => run([{ type: 'boot-asked' }, { type: 'halted' }]).state;

describe('folder runner boot sequence', () => {
  it('boots in order: halt, root, journal, watcher and scan, queued scan, first batch, watcher, confirming rescan', () => {
    const { state, effects } = run([
      { type: 'boot-asked' },
      { type: 'halted' },
      { type: 'root-checked', ok: true },
      { type: 'journal-recovered', gen: 1, outcome: 'none' },
      { type: 'scanned', gen: 1 },
      { type: 'scan-queued', batchWaiting: true, rootless: false },
      { type: 'watcher-ready', gen: 1 },
      { type: 'rescanned', gen: 1 },
    ]);
    expect(effects).toEqual([
      ['halt'],
      ['show-scanning', 'check-root'],
      ['recover-journal'],
      ['start-watcher-and-scan'],
      ['queue-scan'],
      ['run-first-batch', 'await-watcher'],
      ['adopt-watcher', 'confirming-rescan'],
      ['show-watching'],
    ]);
    expect(state).toEqual({ generation: 1, stopped: false, phase: 'running' });
  });

  it('settles without a batch when nothing changed and a root exists; a folder with no root yet always publishes', () => {
    const queued = run(
      [
        { type: 'root-checked', ok: true },
        { type: 'journal-recovered', gen: 1, outcome: 'none' },
        { type: 'scanned', gen: 1 },
      ],
      halted(),
    ).state;
    expect(stepBoot(queued, { type: 'scan-queued', batchWaiting: false, rootless: false }).effects).toEqual([
      { type: 'settle-first' },
      { type: 'await-watcher' },
    ]);
    expect(stepBoot(queued, { type: 'scan-queued', batchWaiting: false, rootless: true }).effects).toEqual([
      { type: 'run-first-batch' },
      { type: 'await-watcher' },
    ]);
  });

  it('a gone root pauses instead of recovering', () => {
    const next = stepBoot(halted(), { type: 'root-checked', ok: false, reason: 'unmounted' });
    expect(next.effects).toEqual([{ type: 'pause', reason: 'unmounted' }]);
    expect(next.state.phase).toBe('off');
  });

  it('notes a discarded journal, and stops when the root went away during recovery', () => {
    const recovering = stepBoot(halted(), { type: 'root-checked', ok: true }).state;
    expect(stepBoot(recovering, { type: 'journal-recovered', gen: 1, outcome: 'discarded' }).effects.map((e) => e.type)).toEqual([
      'log-journal-discarded',
      'start-watcher-and-scan',
    ]);
    expect(stepBoot(recovering, { type: 'journal-recovered', gen: 1, outcome: undefined }).effects).toEqual([]);
  });

  it('every halt and stop starts a new generation: outcomes of an older one decide nothing', () => {
    const scanning = run(
      [
        { type: 'root-checked', ok: true },
        { type: 'journal-recovered', gen: 1, outcome: 'none' },
      ],
      halted(),
    ).state;
    const paused = stepBoot(scanning, { type: 'halt-asked' });
    expect(paused.effects).toEqual([{ type: 'halt' }]);
    expect(paused.state).toEqual({ generation: 2, stopped: false, phase: 'off' });
    // A halt for a pause does not boot on.
    expect(stepBoot(paused.state, { type: 'halted' }).effects).toEqual([]);
    for (const event of [
      { type: 'journal-recovered', gen: 1, outcome: 'none' },
      { type: 'scanned', gen: 1 },
      { type: 'watcher-ready', gen: 1 },
      { type: 'rescanned', gen: 1 },
    ] as const)
      expect(stepBoot(paused.state, event).effects).toEqual([]);
  });

  it('a stop during the halt ends the boot, and a stopped runner adopts no watcher', () => {
    const stopping = run([{ type: 'boot-asked' }, { type: 'stop-asked' }]);
    expect(stopping.state).toEqual({ generation: 2, stopped: true, phase: 'off' });
    expect(stepBoot(stopping.state, { type: 'halted' }).effects).toEqual([]);
    const awaiting: BootState = { generation: 3, stopped: true, phase: 'awaiting-watcher' };
    expect(stepBoot(awaiting, { type: 'watcher-ready', gen: 3 }).effects).toEqual([]);
  });

  it('buffers the watcher during the first scan, pushes it after, and drops an older boot', () => {
    const scanning = run(
      [
        { type: 'root-checked', ok: true },
        { type: 'journal-recovered', gen: 1, outcome: 'none' },
      ],
      halted(),
    ).state;
    expect(routeWatcherEvent(scanning, 1)).toBe('buffer');
    // Still buffered once scanned, until the scan's own events are queued.
    const scanned = stepBoot(scanning, { type: 'scanned', gen: 1 }).state;
    expect(routeWatcherEvent(scanned, 1)).toBe('buffer');
    const queued = stepBoot(scanned, { type: 'scan-queued', batchWaiting: true, rootless: false }).state;
    expect(routeWatcherEvent(queued, 1)).toBe('push');
    expect(routeWatcherEvent(queued, 0)).toBe('drop');
    expect(routeWatcherEvent(stepBoot(queued, { type: 'halt-asked' }).state, 1)).toBe('drop');
  });
});
