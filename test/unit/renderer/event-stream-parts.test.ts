/**
 * The parts of the event stream client, each alone: the reconnect timer's backoff (from the service's
 * `retry:`, doubling, capped, afresh after a reset) and the reader of a stream's body (events and
 * `retry:` handed on as they come, across chunks, until the body ends or the reader is aborted).
 */
import { describe, expect, it } from 'vitest';
import { createReconnectTimer } from '../../../renderer/events/reconnect-timer.js';
import { readSse } from '../../../renderer/events/sse-reader.js';
import { manualTimers } from './event-stream-fakes.js';

describe('reconnect timer', () => {
  // random() = 1: each delay is its ceiling, so the doubling reads plainly.
  const timerWith = () => {
    const timers = manualTimers();
    return { timers, reconnects: createReconnectTimer({ timers, baseMs: 1000, maxMs: 5000, minBaseMs: 250, random: () => 1 }) };
  };

  it('doubles the delay with each failure up to the cap, and starts from the base after a reset', () => {
    const { timers, reconnects } = timerWith();
    let connects = 0;
    const delays = [1, 2, 3, 4].map(() => {
      reconnects.schedule(() => (connects += 1));
      return timers.runNext();
    });
    expect(delays).toEqual([1000, 2000, 4000, 5000]);
    expect(connects).toBe(4);
    reconnects.reset();
    reconnects.schedule(() => undefined);
    expect(timers.pending()).toEqual([1000]);
  });

  it("takes the service's retry as its base, never under the floor", () => {
    const { timers, reconnects } = timerWith();
    reconnects.setBase(3000);
    reconnects.schedule(() => undefined);
    expect(timers.pending()).toEqual([3000]);
    reconnects.cancel();
    reconnects.reset();
    reconnects.setBase(10);
    reconnects.schedule(() => undefined);
    expect(timers.pending()).toEqual([250]);
  });

  it('keeps one call waiting: a new schedule replaces it, cancel drops it', () => {
    const { timers, reconnects } = timerWith();
    reconnects.schedule(() => undefined);
    reconnects.schedule(() => undefined);
    expect(timers.pending()).toHaveLength(1);
    reconnects.cancel();
    expect(timers.pending()).toEqual([]);
  });
});

/** A response whose body is `chunks`, then the end; or, with `open`, a body that stays open after them. */
function streamOf(chunks: string[], open = false): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (!open) controller.close();
    },
  });
  return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
}

describe('readSse', () => {
  it('hands on each event and retry as they come, across chunks, until the body ends', async () => {
    const seen: string[] = [];
    await readSse(streamOf(['retry: 2000\n\nevent: pin\nda', 'ta: {"cid":"a"}\n\n', 'event: usage\ndata: {}\n\n']), new AbortController().signal, {
      retry: (ms) => seen.push(`retry ${ms}`),
      event: (event, data) => seen.push(`${event} ${data}`),
    });
    expect(seen).toEqual(['retry 2000', 'pin {"cid":"a"}', 'usage {}']);
  });

  it('stops at an abort: nothing after it is handed on', async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    await readSse(streamOf(['event: pin\ndata: 1\n\nevent: pin\ndata: 2\n\n'], true), controller.signal, {
      retry: () => undefined,
      event: (_event, data) => {
        seen.push(data);
        controller.abort();
      },
    });
    expect(seen).toEqual(['1']);
  });
});
