import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccountUsage, SyncFolderView } from '../../../../shared/api-types.js';
import { createEventHub } from '../../../../main/http/events/event-hub.js';
import { openEventStream, type StreamClient } from '../../../../main/http/events/event-stream.js';
import { createKeyedThrottle } from '../../../../main/http/events/keyed-throttle.js';
import { sseComment, sseEvent, sseRetry } from '../../../../main/http/events/sse-format.js';
import { TooManyRequestsError } from '../../../../main/base/errors.js';

/** A response whose socket buffer the test fills and drains by hand. */
class FakeResponse extends EventEmitter {
  written: string[] = [];
  full = false;
  ended = false;
  destroyed = false;
  write(text: string): boolean {
    this.written.push(text);
    return !this.full;
  }
  end(): void {
    this.ended = true;
    this.emit('close');
  }
  destroy(): void {
    this.destroyed = true;
    this.emit('close');
  }
  drain(): void {
    this.full = false;
    this.emit('drain');
  }
  asResponse(): ServerResponse {
    return this as unknown as ServerResponse;
  }
}

const CLIENT: StreamClient = { accountId: 1, accessKey: 'k1', isOwner: true, expiresAt: null };

describe('server-sent event text', () => {
  it('event and data on their own lines, a blank line after; comments and retry', () => {
    expect(sseEvent('key', { access_key: 'a' })).toBe('event: key\ndata: {"access_key":"a"}\n\n');
    expect(sseEvent('pin', { cid: 'c', removed: true })).toBe('event: pin\ndata: {"cid":"c","removed":true}\n\n');
    expect(sseEvent('name', { name: 'line\nbreak', removed: true })).toBe('event: name\ndata: {"name":"line\\nbreak","removed":true}\n\n');
    expect(sseComment('keep-alive')).toBe(': keep-alive\n\n');
    expect(sseComment('a\nb')).toBe(': a b\n\n');
    expect(sseRetry(3000)).toBe('retry: 3000\n\n');
  });
});

describe('one event stream', () => {
  it('writes nothing once closed, also before the response reports its close (as Node reports it: later)', () => {
    const response = new FakeResponse();
    response.end = function end(this: FakeResponse) {
      this.ended = true;
    };
    const stream = openEventStream(response.asResponse(), CLIENT, { maxQueued: 4, onClose: () => undefined });
    stream.send('a');
    stream.close();
    stream.send('b');
    stream.send('c', 'usage');
    stream.close();
    expect(response.written).toEqual(['a']);
    expect(response.ended).toBe(true);
  });

  it('writes at once while the client keeps up', () => {
    const response = new FakeResponse();
    const stream = openEventStream(response.asResponse(), CLIENT, { maxQueued: 4, onClose: () => undefined });
    stream.send('a');
    stream.send('b', 'usage');
    expect(response.written).toEqual(['a', 'b']);
  });

  it('for a slow client keeps only the latest of each replaceable kind and the others in order, then flushes on drain', () => {
    const response = new FakeResponse();
    const stream = openEventStream(response.asResponse(), CLIENT, { maxQueued: 4, onClose: () => undefined });
    response.full = true;
    stream.send('first');
    expect(response.written).toEqual(['first']);
    stream.send('usage-1', 'usage');
    stream.send('pin-1');
    stream.send('usage-2', 'usage');
    stream.send('sync-a-1', 'sync:a');
    stream.send('pin-2');
    stream.send('sync-a-2', 'sync:a');
    expect(response.written).toEqual(['first']);
    response.drain();
    expect(response.written).toEqual(['first', 'pin-1', 'pin-2', 'usage-2', 'sync-a-2']);
  });

  it('cuts off a client further behind than the bound, and says it closed', () => {
    const response = new FakeResponse();
    const onClose = vi.fn();
    const stream = openEventStream(response.asResponse(), CLIENT, { maxQueued: 2, onClose });
    response.full = true;
    stream.send('written');
    stream.send('q1');
    stream.send('q2');
    expect(response.destroyed).toBe(false);
    stream.send('q3');
    expect(response.destroyed).toBe(true);
    expect(stream.closed).toBe(true);
    expect(onClose).toHaveBeenCalledTimes(1);
    stream.send('after');
    expect(response.written).toEqual(['written']);
  });

  it('close ends a reading client gracefully and destroys a stuck one', () => {
    const reading = new FakeResponse();
    openEventStream(reading.asResponse(), CLIENT, { maxQueued: 2, onClose: () => undefined }).close();
    expect(reading.ended).toBe(true);
    const stuck = new FakeResponse();
    const stream = openEventStream(stuck.asResponse(), CLIENT, { maxQueued: 2, onClose: () => undefined });
    stuck.full = true;
    stream.send('x');
    stream.close();
    expect(stuck.destroyed).toBe(true);
  });
});

describe('keyed throttle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('fires once on the next turn for a burst, then at most once per interval per key', () => {
    const fired: string[] = [];
    const throttle = createKeyedThrottle(
      1000,
      (key: string) => fired.push(key),
      () => Date.now(),
    );
    for (let i = 0; i < 10; i++) throttle.request('a');
    throttle.request('b');
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(0);
    expect(fired).toEqual(['a', 'b']);
    throttle.request('a');
    vi.advanceTimersByTime(999);
    expect(fired).toEqual(['a', 'b']);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['a', 'b', 'a']);
    throttle.request('a');
    throttle.cancel('a');
    vi.advanceTimersByTime(5000);
    expect(fired).toEqual(['a', 'b', 'a']);
    throttle.request('b');
    throttle.close();
    vi.advanceTimersByTime(5000);
    expect(fired).toEqual(['a', 'b', 'a']);
  });
});

describe('event hub', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const usage = (ingress: number): AccountUsage => ({ ingress }) as AccountUsage;
  const folder = (id: string, files: number): SyncFolderView => ({ id, files }) as SyncFolderView;
  /** Lets the hub's reads (promises from the store) settle and be sent, moving no time. */
  const settle = () => vi.advanceTimersByTimeAsync(0);

  function hub(state: { ingress: number; files: number; reads: number }) {
    return createEventHub({
      clock: { nowMs: () => Date.now() },
      usageOf: async () => {
        state.reads++;
        return usage(state.ingress);
      },
      syncFolderOf: async (_accountId, id) => folder(id, state.files),
      keepAliveMs: 25_000,
    });
  }

  it('usage: at connect, then one read and one event per second for any burst of changes', async () => {
    const state = { ingress: 1, files: 0, reads: 0 };
    const events = hub(state);
    const response = new FakeResponse();
    events.open(response.asResponse(), CLIENT);
    await settle();
    expect(response.written).toEqual([sseRetry(3000), sseEvent('usage', usage(1))]);
    state.reads = 0;
    for (let i = 2; i <= 50; i++) {
      state.ingress = i;
      events.usageChanged(1);
    }
    await vi.advanceTimersByTimeAsync(0);
    expect(state.reads).toBe(1);
    expect(response.written.slice(2)).toEqual([sseEvent('usage', usage(50))]);
    state.ingress = 51;
    events.usageChanged(1);
    state.ingress = 52;
    events.usageChanged(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(response.written).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(response.written.slice(3)).toEqual([sseEvent('usage', usage(52))]);
    events.close();
  });

  it("sync: at most 4 a second per folder, only to the owner's streams; removal at once", async () => {
    const state = { ingress: 0, files: 0, reads: 0 };
    const events = hub(state);
    const owner = new FakeResponse();
    const notOwner = new FakeResponse();
    events.open(owner.asResponse(), CLIENT);
    events.open(notOwner.asResponse(), { ...CLIENT, accessKey: 'k2', isOwner: false });
    await settle();
    const baseline = owner.written.length;
    for (let i = 1; i <= 100; i++) {
      state.files = i;
      events.syncChanged(1, 'f');
      await vi.advanceTimersByTimeAsync(10);
    }
    // 1 s of changes every 10 ms: the first at once, then one per 250 ms.
    const sent = owner.written.slice(baseline);
    expect(sent.length).toBeGreaterThanOrEqual(4);
    expect(sent.length).toBeLessThanOrEqual(5);
    await vi.advanceTimersByTimeAsync(250);
    expect(owner.written[owner.written.length - 1]).toBe(sseEvent('sync', folder('f', 100)));
    events.syncChanged(1, 'f', true);
    expect(owner.written[owner.written.length - 1]).toBe(sseEvent('sync', { id: 'f', removed: true }));
    expect(notOwner.written.some((text) => text.startsWith('event: sync'))).toBe(false);
    events.close();
  });

  it("routes by account; a deleted key's streams end; at most N streams per key; a session ends at its expiry", async () => {
    const state = { ingress: 0, files: 0, reads: 0 };
    const events = createEventHub({
      clock: { nowMs: () => Date.now() },
      usageOf: async () => usage(0),
      syncFolderOf: async () => undefined,
      maxStreamsPerKey: 2,
    });
    const mine = new FakeResponse();
    const theirs = new FakeResponse();
    events.open(mine.asResponse(), CLIENT);
    events.open(theirs.asResponse(), { ...CLIENT, accountId: 2, accessKey: 'k9' });
    await settle();
    events.pinChanged(1, { cid: 'c', removed: true });
    expect(mine.written.at(-1)).toBe(sseEvent('pin', { cid: 'c', removed: true }));
    expect(theirs.written.some((text) => text.startsWith('event: pin'))).toBe(false);

    events.open(new FakeResponse().asResponse(), CLIENT);
    expect(() => events.checkRoom('k1')).toThrow(TooManyRequestsError);
    expect(() => events.checkRoom('k9')).not.toThrow();
    events.keyChanged(1, { access_key: 'k1', removed: true });
    expect(mine.ended).toBe(true);
    expect(events.openStreams()).toBe(1);
    expect(() => events.checkRoom('k1')).not.toThrow();

    const session = new FakeResponse();
    events.open(session.asResponse(), { ...CLIENT, accessKey: 's1', expiresAt: Math.floor(Date.now() / 1000) + 60 });
    await vi.advanceTimersByTimeAsync(59_000);
    expect(session.ended).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(session.ended).toBe(true);
    events.close();
    expect(theirs.ended).toBe(true);
    expect(events.openStreams()).toBe(0);
    expect(state.reads).toBe(0);
  });

  it("partner: a user's usage and key notices reach its partner's streams as `partner {uuid}`, one a second per user, looked up when sent", async () => {
    const lookups: number[] = [];
    // Account 5 was made by partner 1 (uuid u5); account 6 by partner 2; account 7 by no partner.
    const made: Record<number, { partnerId: number; uuid: string }> = { 5: { partnerId: 1, uuid: 'u5' }, 6: { partnerId: 2, uuid: 'u6' } };
    const events = createEventHub({
      clock: { nowMs: () => Date.now() },
      usageOf: async () => usage(0),
      syncFolderOf: async () => undefined,
      partnerOf: async (accountId) => {
        lookups.push(accountId);
        return made[accountId] ?? null;
      },
    });
    // Nobody listens: no lookup at all.
    events.usageChanged(5);
    await vi.advanceTimersByTimeAsync(1000);
    expect(lookups).toEqual([]);

    const partner = new FakeResponse();
    const other = new FakeResponse();
    events.open(partner.asResponse(), CLIENT);
    events.open(other.asResponse(), { ...CLIENT, accountId: 3, accessKey: 'k3' });
    await settle();
    const partnerEvents = () => partner.written.filter((text) => text.startsWith('event: partner'));
    for (let i = 0; i < 20; i++) events.usageChanged(5);
    events.keyChanged(5, { access_key: 'user-key' });
    await vi.advanceTimersByTimeAsync(0);
    expect(partnerEvents()).toEqual([sseEvent('partner', { uuid: 'u5' })]);
    expect(lookups).toEqual([5]);
    events.keyChanged(5, { access_key: 'user-key', removed: true });
    await vi.advanceTimersByTimeAsync(999);
    expect(partnerEvents()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(partnerEvents()).toHaveLength(2);

    // Another partner's user, and an account no partner made: nothing reaches partner 1, or anyone else.
    events.usageChanged(6);
    events.usageChanged(7);
    await vi.advanceTimersByTimeAsync(1000);
    expect(partnerEvents()).toHaveLength(2);
    expect(other.written.some((text) => text.startsWith('event: partner'))).toBe(false);
    events.close();
  });

  it('keep-alive comments every 25 s while a stream is open', async () => {
    const state = { ingress: 0, files: 0, reads: 0 };
    const events = hub(state);
    const response = new FakeResponse();
    events.open(response.asResponse(), CLIENT);
    await settle();
    const before = response.written.length;
    await vi.advanceTimersByTimeAsync(25_000);
    expect(response.written.slice(before)).toEqual([sseComment('keep-alive')]);
    events.close();
  });
});
