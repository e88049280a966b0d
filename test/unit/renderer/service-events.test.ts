import { describe, expect, it } from 'vitest';
import { createEventHub } from '../../../renderer/events/event-hub.js';
import { decodeServiceEvent } from '../../../renderer/events/service-events.js';
import type { PinRecord } from '../../../shared/api-types.js';
import { USAGE } from './fixtures.js';

const PIN: PinRecord = { name: 'a', cid: 'bafy', status: 'pinning', size: 0, created_at: 1 };

describe('decodeServiceEvent', () => {
  it('checks each event type against its payload shape', () => {
    expect(decodeServiceEvent('usage', JSON.stringify(USAGE))).toEqual({ type: 'usage', payload: USAGE });
    expect(decodeServiceEvent('pin', JSON.stringify(PIN))).toEqual({ type: 'pin', payload: PIN });
    expect(decodeServiceEvent('pin', '{"cid":"bafy","removed":true}')).toEqual({ type: 'pin', payload: { cid: 'bafy', removed: true } });
    expect(decodeServiceEvent('name', '{"name":"k51","removed":true}')?.type).toBe('name');
    expect(decodeServiceEvent('key', '{"access_key":"a"}')).toEqual({ type: 'key', payload: { access_key: 'a' } });
    expect(decodeServiceEvent('key', '{"access_key":"a","removed":true}')?.payload).toEqual({ access_key: 'a', removed: true });
    expect(decodeServiceEvent('sync', '{"id":"f1","removed":true}')?.type).toBe('sync');
    expect(decodeServiceEvent('partner', '{"uuid":"user-1"}')).toEqual({ type: 'partner', payload: { uuid: 'user-1' } });
  });

  it('drops unknown types, broken JSON and payloads of the wrong shape', () => {
    expect(decodeServiceEvent('message', '{}')).toBeNull();
    expect(decodeServiceEvent('pin', '{"cid":')).toBeNull();
    expect(decodeServiceEvent('pin', JSON.stringify({ ...PIN, status: 'removed' }))).toBeNull();
    expect(decodeServiceEvent('pin', '{"cid":"bafy","removed":false}')).toBeNull();
    expect(decodeServiceEvent('usage', '{"plan":"Free"}')).toBeNull();
    expect(decodeServiceEvent('key', '{"access_key":"a","access_secret":"s","removed":"yes"}')).toBeNull();
    expect(decodeServiceEvent('partner', '{"uuid":7}')).toBeNull();
    expect(decodeServiceEvent('partner', '"user-1"')).toBeNull();
  });
});

describe('createEventHub', () => {
  it('hands an event to the handlers of its type only, until they unsubscribe', () => {
    const hub = createEventHub();
    const seen: string[] = [];
    const stop = hub.subscribe('pin', (pin) => seen.push(`pin ${'cid' in pin ? pin.cid : ''}`));
    hub.subscribe('usage', (usage) => seen.push(`usage ${usage.plan}`));
    hub.dispatch({ type: 'pin', payload: PIN });
    hub.dispatch({ type: 'usage', payload: USAGE });
    stop();
    hub.dispatch({ type: 'pin', payload: PIN });
    expect(seen).toEqual(['pin bafy', 'usage Local']);
  });
});
