/**
 * renderer/data/pin-records.ts: the pins a page looks up one by one (the Files page's recent uploads), on a
 * real QueryClient with the live cache connected. `event: pin` puts the new state in place of what is held,
 * also over a lookup still on its way (whose answer, from before the change, is dropped); a pin made from
 * the window does the same; a CID nobody looks up gets no entry.
 */
import { QueryObserver, type QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectLiveCache } from '../../../renderer/data/live-cache.js';
import { putPinRecord } from '../../../renderer/data/pin-records.js';
import { createQueryClient } from '../../../renderer/data/query-client.js';
import { queryKeys } from '../../../renderer/data/query-keys.js';
import { createEventHub, type EventHub } from '../../../renderer/events/event-hub.js';
import type { PinRecord } from '../../../shared/api-types.js';
import { deferred, type Deferred } from '../../helpers/deferred.js';
import { manualTimers } from './event-stream-fakes.js';

const CID = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';
const PINNED: PinRecord = { name: 'report.pdf', cid: CID, status: 'pinned', size: 2048, created_at: 1 };

let client: QueryClient;
let hub: EventHub;
let disconnect: () => void;
const stops: Array<() => void> = [];

beforeEach(() => {
  client = createQueryClient();
  hub = createEventHub();
  disconnect = connectLiveCache(client, hub, manualTimers());
});
afterEach(() => {
  disconnect();
  for (const stop of stops.splice(0)) stop();
  client.clear();
});

/** The pin of CID as a page shows it: each lookup answers the next of `answers` (a held one when given a Deferred). */
function shownRecord(...answers: Array<PinRecord | null | Deferred<PinRecord | null>>): { lookups: () => number } {
  let lookups = 0;
  const observer = new QueryObserver<PinRecord | null>(client, {
    queryKey: queryKeys.pins.record(CID),
    queryFn: () => {
      const answer = answers[Math.min(lookups, answers.length - 1)] ?? null;
      lookups += 1;
      return answer !== null && 'promise' in answer ? answer.promise : answer;
    },
  });
  stops.push(observer.subscribe(() => undefined));
  return { lookups: () => lookups };
}

const record = () => client.getQueryData<PinRecord | null>(queryKeys.pins.record(CID));
/** Lets the lookups started settle. */
const settled = () => vi.waitFor(() => expect(client.isFetching()).toBe(0));

describe('pin records', () => {
  it('follow event: pin: the new state, then null once the pin is removed, without a lookup', async () => {
    const shown = shownRecord(null);
    await settled();
    expect(record()).toBeNull();

    hub.dispatch({ type: 'pin', payload: PINNED });
    expect(record()).toEqual(PINNED);
    hub.dispatch({ type: 'pin', payload: { cid: CID, removed: true } });
    expect(record()).toBeNull();
    await settled();
    expect(shown.lookups()).toBe(1);
  });

  it('keep what an event said over a lookup that was on its way: its late answer is dropped', async () => {
    const held = deferred<PinRecord | null>();
    shownRecord(held);
    await vi.waitFor(() => expect(client.isFetching()).toBe(1));

    hub.dispatch({ type: 'pin', payload: PINNED });
    held.resolve(null);
    await settled();
    expect(record()).toEqual(PINNED);
  });

  it('take a pin made from the window in the same way', async () => {
    const held = deferred<PinRecord | null>();
    shownRecord(held);
    await vi.waitFor(() => expect(client.isFetching()).toBe(1));

    putPinRecord(client, CID, PINNED);
    held.resolve(null);
    await settled();
    expect(record()).toEqual(PINNED);
  });

  it('are not made for a CID that no page looks up', () => {
    hub.dispatch({ type: 'pin', payload: PINNED });
    putPinRecord(client, CID, PINNED);
    expect(client.getQueryState(queryKeys.pins.record(CID))).toBeUndefined();
  });
});
