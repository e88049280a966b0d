import { describe, expect, it } from 'vitest';
import { fetchTuning } from '../../../main/network/fetch-tuning.js';
import { retryAfterMs } from '../../../main/network/retry-after.js';
import { SourceHealth } from '../../../main/network/source-health.js';

function healthAt(overrides: Parameters<typeof fetchTuning>[0] = {}) {
  let now = 1000;
  const health = new SourceHealth(
    fetchTuning({
      failuresBeforeAside: 3,
      backoffBaseMs: 100,
      backoffMaxMs: 1000,
      asideMs: 10_000,
      asideMaxMs: 25_000,
      wrongBlockAsideMs: 600_000,
      maxRetryAfterMs: 60_000,
      ...overrides,
    }),
    () => now,
    () => 1,
  );
  return { health, advance: (ms: number) => (now += ms), now: () => now };
}

describe('SourceHealth', () => {
  it('backs off exponentially after each failure, then sets the source aside, longer each time', () => {
    const { health, advance, now } = healthAt();
    expect(health.state()).toBe('ready');
    health.failed();
    expect(health.state()).toBe('waiting');
    expect(health.readyAt() - now()).toBe(100);
    advance(100);
    health.failed();
    expect(health.readyAt() - now()).toBe(200);
    advance(200);
    health.failed();
    expect(health.state()).toBe('aside');
    expect(health.readyAt() - now()).toBe(10_000);
    advance(10_000);
    expect(health.isReady()).toBe(true);
    for (let i = 0; i < 3; i++) health.failed();
    expect(health.readyAt() - now()).toBe(20_000);
    advance(20_000);
    for (let i = 0; i < 3; i++) health.failed();
    expect(health.readyAt() - now()).toBe(25_000);
  });

  it('forgets its failures after a success', () => {
    const { health, advance, now } = healthAt();
    health.failed();
    health.failed();
    advance(1000);
    health.succeeded();
    health.failed();
    expect(health.state()).toBe('waiting');
    expect(health.readyAt() - now()).toBe(100);
  });

  it('sets a source that sent a wrong block aside at once', () => {
    const { health, now } = healthAt();
    health.misbehaved();
    expect(health.state()).toBe('aside');
    expect(health.readyAt() - now()).toBe(600_000);
  });

  it('waits a Retry-After, and sets aside for one longer than it honours', () => {
    const { health, advance, now } = healthAt();
    health.busy(5000);
    expect(health.state()).toBe('waiting');
    expect(health.readyAt() - now()).toBe(5000);
    advance(5000);
    expect(health.isReady()).toBe(true);
    health.busy(120_000);
    expect(health.state()).toBe('aside');
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates', () => {
    const now = Date.UTC(2027, 0, 1, 12, 0, 0);
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs(new Date(now + 7000).toUTCString(), now)).toBe(7000);
    expect(retryAfterMs(new Date(now - 7000).toUTCString(), now)).toBe(0);
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });
});
