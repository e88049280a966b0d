import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiCore } from '../../../renderer/api/core.js';
import { eventsApi } from '../../../renderer/api/events.js';
import { createEventStream, MAX_RETRY_MS, type EventStream, type EventStreamStatus } from '../../../renderer/events/event-stream.js';
import { fakeFetch, fakeVisibility, manualTimers, type FakeFetch, type ManualTimers } from './event-stream-fakes.js';

const credentials = { accessKey: 'key-1', accessSecret: 'secret-1' };

let network: FakeFetch;
let visibility: ReturnType<typeof fakeVisibility>;
let timers: ManualTimers;
let received: string[];
let opens: boolean[];
let statuses: EventStreamStatus[];
let unauthorized: string[];

function start(visible = true): EventStream {
  visibility = fakeVisibility(visible);
  const events = eventsApi(createApiCore({ fetch: network.fetch, baseUrl: 'http://127.0.0.1:5080', now: () => 1_700_000_000_000, credentials }));
  const stream = createEventStream({
    open: (signal) => events.open(signal),
    visibility,
    timers,
    random: () => 0,
    onEvent: (event, data) => received.push(`${event} ${data}`),
    onOpen: (resumed) => opens.push(resumed),
    onStatus: (status) => statuses.push(status),
    onUnauthorized: (error) => unauthorized.push(error.msg),
  });
  stream.start();
  return stream;
}

const settle = (check: () => void) => vi.waitFor(check, { timeout: 2000, interval: 5 });

beforeEach(() => {
  network = fakeFetch();
  timers = manualTimers();
  received = [];
  opens = [];
  statuses = [];
  unauthorized = [];
});

describe('createEventStream', () => {
  it('opens one authenticated stream while visible and hands on each event', async () => {
    const stream = start();
    await settle(() => expect(stream.status()).toBe('open'));
    expect(network.connections).toHaveLength(1);
    const [connection] = network.connections;
    expect(connection?.url).toBe('http://127.0.0.1:5080/api/v0/events?ts=1700000000');
    expect(connection?.headers['X-Access-Key']).toBe('key-1');
    expect(connection?.headers.Accept).toBe('text/event-stream');
    connection?.send('retry: 3000\n\nevent: usage\ndata: {"a":1}\n\n: keep-alive\n\nevent: pin\ndata: {"cid":"x"}\n\n');
    await settle(() => expect(received).toEqual(['usage {"a":1}', 'pin {"cid":"x"}']));
    expect(opens).toEqual([false]);
    expect(statuses).toEqual(['connecting', 'open']);
    expect(timers.pending()).toEqual([]);
  });

  it('holds no connection while the window is hidden, and reconnects at once when it shows, as a resumption', async () => {
    const stream = start(false);
    expect(stream.status()).toBe('hidden');
    expect(network.connections).toHaveLength(0);
    visibility.set(true);
    await settle(() => expect(stream.status()).toBe('open'));
    visibility.set(false);
    expect(stream.status()).toBe('hidden');
    expect(network.connections[0]?.signal.aborted).toBe(true);
    expect(timers.pending()).toEqual([]);
    visibility.set(true);
    await settle(() => expect(stream.status()).toBe('open'));
    expect(network.connections).toHaveLength(2);
    expect(opens).toEqual([false, true]);
  });

  it('reconnects after the service closed the stream, after its retry delay, and says it resumed', async () => {
    const stream = start();
    await settle(() => expect(stream.status()).toBe('open'));
    network.connections[0]?.send('retry: 4000\n\nevent: usage\ndata: {}\n\n');
    await settle(() => expect(received).toHaveLength(1));
    network.connections[0]?.end();
    await settle(() => expect(stream.status()).toBe('waiting'));
    // Equal jitter over [retry/2, retry]; random() = 0 here.
    expect(timers.pending()).toEqual([2000]);
    timers.runNext();
    await settle(() => expect(stream.status()).toBe('open'));
    expect(opens).toEqual([false, true]);
  });

  it('backs off further after each failed try, up to the cap, and starts afresh once events flow', async () => {
    network.next = ['unreachable', 'unreachable', { status: 429, msg: 'too many event streams' }, 'unreachable'];
    const stream = start();
    const delays: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await settle(() => expect(timers.pending()).toHaveLength(1));
      delays.push(timers.runNext());
    }
    expect(delays).toEqual([1500, 3000, 6000, 12_000]);
    await settle(() => expect(stream.status()).toBe('open'));
    network.connections[0]?.send('event: usage\ndata: {}\n\n');
    await settle(() => expect(received).toHaveLength(1));
    network.connections[0]?.end();
    await settle(() => expect(timers.pending()).toEqual([1500]));
  });

  it('never waits longer than the cap', async () => {
    network.next = Array.from({ length: 12 }, () => 'unreachable' as const);
    start();
    let last = 0;
    for (let attempt = 0; attempt < 12; attempt += 1) {
      await settle(() => expect(timers.pending()).toHaveLength(1));
      last = timers.runNext();
    }
    expect(last).toBe(MAX_RETRY_MS / 2);
  });

  it('stops for good when the service refuses the key (401), and says so', async () => {
    network.next = [{ status: 401, msg: 'session expired' }];
    const stream = start();
    await settle(() => expect(unauthorized).toEqual(['session expired']));
    expect(stream.status()).toBe('stopped');
    expect(timers.pending()).toEqual([]);
    expect(visibility.listeners()).toBe(0);
  });

  it('stop() closes the connection, cancels a pending retry and ignores later visibility changes', async () => {
    const stream = start();
    await settle(() => expect(stream.status()).toBe('open'));
    stream.stop();
    expect(network.connections[0]?.signal.aborted).toBe(true);
    visibility.set(false);
    visibility.set(true);
    expect(network.connections).toHaveLength(1);
    expect(stream.status()).toBe('stopped');

    network.next = ['unreachable'];
    const second = start();
    await settle(() => expect(timers.pending()).toHaveLength(1));
    second.stop();
    expect(timers.pending()).toEqual([]);
  });
});
