import { describe, expect, it } from 'vitest';
import { SerialDispatch } from '../../../main/desktop/serial-dispatch.js';

describe('serial dispatch', () => {
  it('an event raised while another is applied waits until that one is done, in order', () => {
    const log: string[] = [];
    const events: SerialDispatch<string> = new SerialDispatch((event) => {
      log.push(`begin ${event}`);
      if (event === 'a') {
        events.dispatch('b');
        events.dispatch('c');
      }
      log.push(`end ${event}`);
    });
    events.dispatch('a');
    expect(log).toEqual(['begin a', 'end a', 'begin b', 'end b', 'begin c', 'end c']);
  });

  it('takes events again after one threw', () => {
    const seen: string[] = [];
    const events = new SerialDispatch<string>((event) => {
      seen.push(event);
      if (event === 'bad') throw new Error('bad event');
    });
    expect(() => events.dispatch('bad')).toThrow('bad event');
    events.dispatch('good');
    expect(seen).toEqual(['bad', 'good']);
  });
});
