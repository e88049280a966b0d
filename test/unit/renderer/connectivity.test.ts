import { describe, expect, it, vi } from 'vitest';
import { createConnectivityMonitor, PROBE_BASE_MS } from '../../../renderer/app/connectivity.js';
import { fakeVisibility, manualTimers } from './event-stream-fakes.js';

/** A monitor whose probe answers as the test says: `answers()` resolves the next probe, `fails()` rejects it. */
function setUp(visible = true) {
  const visibility = fakeVisibility(visible);
  const timers = manualTimers();
  const probes: Array<{ resolve(): void; reject(): void; signal: AbortSignal }> = [];
  let recovered = 0;
  const monitor = createConnectivityMonitor({
    probe: (signal) =>
      new Promise<void>((resolve, reject) => {
        probes.push({ resolve, reject: () => reject(new TypeError('fetch failed')), signal });
      }),
    visibility,
    timers,
    random: () => 0,
    onRecovered: () => {
      recovered += 1;
    },
  });
  return { monitor, visibility, timers, probes, recovered: () => recovered };
}

const settle = (check: () => void) => vi.waitFor(check, { timeout: 2000, interval: 5 });

describe('createConnectivityMonitor', () => {
  it('does nothing at all while the service answers', () => {
    const { monitor, timers, probes } = setUp();
    monitor.reportAnswered();
    expect(monitor.store.get()).toEqual({ state: 'online' });
    expect(timers.pending()).toEqual([]);
    expect(probes).toHaveLength(0);
  });

  it('goes offline on a call without answer, probes with growing delays, and recovers on the first answer', async () => {
    const { monitor, timers, probes, recovered } = setUp();
    monitor.reportUnreachable();
    expect(monitor.store.get()).toEqual({ state: 'offline', checking: false });
    expect(timers.pending()).toEqual([PROBE_BASE_MS / 2]);
    timers.runNext();
    expect(monitor.store.get()).toEqual({ state: 'offline', checking: true });
    probes[0]?.reject();
    await settle(() => expect(timers.pending()).toEqual([PROBE_BASE_MS]));
    timers.runNext();
    probes[1]?.reject();
    await settle(() => expect(timers.pending()).toEqual([2 * PROBE_BASE_MS]));
    timers.runNext();
    probes[2]?.resolve();
    await settle(() => expect(monitor.store.get()).toEqual({ state: 'online' }));
    expect(recovered()).toBe(1);
    expect(timers.pending()).toEqual([]);
  });

  it('any answer (not only the probe) ends the offline state and cancels the waiting probe', () => {
    const { monitor, timers, recovered } = setUp();
    monitor.reportUnreachable();
    monitor.reportUnreachable();
    expect(timers.pending()).toHaveLength(1);
    monitor.reportAnswered();
    expect(monitor.store.get().state).toBe('online');
    expect(timers.pending()).toEqual([]);
    expect(recovered()).toBe(1);
  });

  it('Retry probes at once', async () => {
    const { monitor, timers, probes } = setUp();
    monitor.reportUnreachable();
    monitor.retryNow();
    expect(timers.pending()).toEqual([]);
    expect(probes).toHaveLength(1);
    probes[0]?.resolve();
    await settle(() => expect(monitor.store.get().state).toBe('online'));
  });

  it('does not probe while the window is hidden, and probes as soon as it shows', () => {
    const { monitor, visibility, timers, probes } = setUp();
    monitor.reportUnreachable();
    visibility.set(false);
    expect(timers.pending()).toEqual([]);
    expect(monitor.store.get()).toEqual({ state: 'offline', checking: false });
    visibility.set(true);
    expect(probes).toHaveLength(1);
  });

  it('a probe in flight when the window hides is abandoned', () => {
    const { monitor, visibility, timers, probes } = setUp();
    monitor.reportUnreachable();
    timers.runNext();
    visibility.set(false);
    expect(probes[0]?.signal.aborted).toBe(true);
    expect(timers.pending()).toEqual([]);
  });

  it('dispose() stops everything', () => {
    const { monitor, visibility, timers, probes } = setUp();
    monitor.reportUnreachable();
    monitor.dispose();
    expect(timers.pending()).toEqual([]);
    visibility.set(false);
    visibility.set(true);
    expect(probes).toHaveLength(0);
  });
});
