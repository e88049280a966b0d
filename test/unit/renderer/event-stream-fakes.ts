/** Fakes of the browser around the event stream client: fetch with streams the test writes, the document's visibility, timers run by hand. */
import type { Timers, VisibilitySource } from '../../../renderer/events/event-stream.js';

export interface FakeConnection {
  url: string;
  headers: Record<string, string>;
  signal: AbortSignal;
  /** Sends text on the stream. */
  send(text: string): void;
  /** Ends the stream (the service closed it). */
  end(): void;
}

export interface FakeFetch {
  fetch: typeof fetch;
  connections: FakeConnection[];
  /** How the next calls answer: 'stream' (200 event stream), an error envelope, or no answer at all. */
  next: Array<'stream' | { status: number; msg: string } | 'unreachable'>;
}

export function fakeFetch(): FakeFetch {
  const fake: FakeFetch = {
    connections: [],
    next: [],
    fetch: (input, init) => {
      const plan = fake.next.shift() ?? 'stream';
      if (plan === 'unreachable') return Promise.reject(new TypeError('fetch failed'));
      if (plan !== 'stream')
        return Promise.resolve(
          new Response(JSON.stringify({ code: plan.status, msg: plan.msg }), { status: plan.status, headers: { 'Content-Type': 'application/json' } }),
        );
      const signal = init?.signal ?? new AbortController().signal;
      let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          controller = c;
        },
      });
      const encoder = new TextEncoder();
      signal.addEventListener('abort', () => {
        try {
          controller?.error(new DOMException('The operation was aborted.', 'AbortError'));
        } catch {
          // already closed
        }
      });
      fake.connections.push({
        url: input instanceof Request ? input.url : input.toString(),
        headers: (init?.headers ?? {}) as Record<string, string>,
        signal,
        send: (text) => controller?.enqueue(encoder.encode(text)),
        end: () => controller?.close(),
      });
      return Promise.resolve(new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream; charset=utf-8' } }));
    },
  };
  return fake;
}

export function fakeVisibility(initiallyVisible = true): VisibilitySource & { set(visible: boolean): void; listeners(): number } {
  let visible = initiallyVisible;
  const listeners = new Set<() => void>();
  return {
    isVisible: () => visible,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      visible = next;
      for (const listener of [...listeners]) listener();
    },
    listeners: () => listeners.size,
  };
}

export interface ManualTimers extends Timers {
  /** Delays of the timers waiting now. */
  pending(): number[];
  /** Runs the earliest waiting timer; fails if there is none. */
  runNext(): number;
}

export function manualTimers(): ManualTimers {
  let nextId = 1;
  const waiting = new Map<number, { callback: () => void; ms: number }>();
  return {
    setTimeout(callback, ms) {
      const id = nextId++;
      waiting.set(id, { callback, ms });
      return id;
    },
    clearTimeout(handle) {
      waiting.delete(handle as number);
    },
    pending: () => [...waiting.values()].map((timer) => timer.ms),
    runNext() {
      const first = [...waiting.entries()][0];
      if (!first) throw new Error('no timer is waiting');
      waiting.delete(first[0]);
      first[1].callback();
      return first[1].ms;
    },
  };
}
