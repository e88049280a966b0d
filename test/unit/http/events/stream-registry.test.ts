import { describe, expect, it } from 'vitest';
import type { StreamClient } from '../../../../main/http/events/event-stream.js';
import { StreamRegistry } from '../../../../main/http/events/stream-registry.js';
import { expiryDelayMs } from '../../../../main/http/events/stream-timers.js';

const client = (accountId: number, accessKey: string, isOwner = false): StreamClient => ({ accountId, accessKey, isOwner, expiresAt: null });

describe('stream registry', () => {
  it('routes by account and counts per access key', () => {
    const streams = new StreamRegistry<StreamClient>();
    const a = client(1, 'k1', true);
    const b = client(1, 'k2');
    const c = client(2, 'k1');
    for (const stream of [a, b, c]) streams.add(stream);

    expect(streams.count()).toBe(3);
    expect(streams.streamsOf(1)).toEqual([a, b]);
    expect(streams.ownerStreamsOf(1)).toEqual([a]);
    expect(streams.streamsOf(3)).toEqual([]);
    expect(streams.openWithKey('k1')).toBe(2);
    expect(streams.openWithKey('k3')).toBe(0);
    expect(streams.streamsOfKey('k1')).toEqual([a, c]);
    expect(streams.streamsOfKey('k3')).toEqual([]);
    expect(streams.all()).toEqual([a, b, c]);
  });

  it('says when a removal emptied the account, and forgets a key with its last stream', () => {
    const streams = new StreamRegistry<StreamClient>();
    const a = client(1, 'k1');
    const b = client(1, 'k1');
    streams.add(a);
    streams.add(b);

    expect(streams.remove(a)).toBe(false);
    expect(streams.hasAccount(1)).toBe(true);
    expect(streams.openWithKey('k1')).toBe(1);
    expect(streams.remove(b)).toBe(true);
    expect(streams.hasAccount(1)).toBe(false);
    expect(streams.isEmpty).toBe(true);
    expect(streams.openWithKey('k1')).toBe(0);
    expect(streams.streamsOfKey('k1')).toEqual([]);
    // A second removal (a stream reporting its close twice) changes nothing.
    expect(streams.remove(b)).toBe(false);
    expect(streams.count()).toBe(0);
  });

  it('hands out copies, so a stream that closes while delivered to does not disturb the walk', () => {
    const streams = new StreamRegistry<StreamClient>();
    const a = client(1, 'k1');
    const b = client(1, 'k2');
    streams.add(a);
    streams.add(b);
    const seen: StreamClient[] = [];
    for (const stream of streams.streamsOf(1)) {
      seen.push(stream);
      streams.remove(stream);
    }
    expect(seen).toEqual([a, b]);
  });
});

describe('session expiry delay', () => {
  it('is the time left, never negative, and within what setTimeout accepts', () => {
    expect(expiryDelayMs(100, 90_000)).toBe(10_000);
    expect(expiryDelayMs(100, 120_000)).toBe(0);
    expect(expiryDelayMs(10 ** 10, 0)).toBe(2 ** 31 - 1);
  });
});
