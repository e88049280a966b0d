import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ThrottledSend } from '../../../main/pins/throttled-send.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 10_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a send at most once an interval', () => {
  it('sends the first poke at once and the pokes within the interval once, at its end', () => {
    let sent = 0;
    const throttled = new ThrottledSend(1_000, () => sent++);
    throttled.poke();
    expect(sent).toBe(1);
    vi.advanceTimersByTime(200);
    throttled.poke();
    throttled.poke();
    expect(sent).toBe(1);
    vi.advanceTimersByTime(799);
    expect(sent).toBe(1);
    vi.advanceTimersByTime(1);
    expect(sent).toBe(2);
    vi.advanceTimersByTime(5_000);
    expect(sent).toBe(2);
  });

  it('a send still waiting is dropped at dispose', () => {
    let sent = 0;
    const throttled = new ThrottledSend(1_000, () => sent++);
    throttled.poke();
    throttled.poke();
    throttled.dispose();
    vi.advanceTimersByTime(2_000);
    expect(sent).toBe(1);
  });
});
