import { describe, expect, it } from 'vitest';
import { quitAfterClose } from '../../../main/desktop/lifecycle.js';

function quitEvent() {
  const event = { prevented: false, preventDefault: () => void (event.prevented = true) };
  return event;
}

/** A close() the test finishes by hand, to look at the state in between. */
function pendingClose() {
  let finish: (error?: Error) => void = () => {};
  let calls = 0;
  const close = () => {
    calls += 1;
    return new Promise<void>((resolve, reject) => {
      finish = (error) => (error ? reject(error) : resolve());
    });
  };
  return { close, finish: (error?: Error) => finish(error), calls: () => calls };
}

describe('quitAfterClose', () => {
  it('holds the quit until the service has closed, then quits once', async () => {
    const pending = pendingClose();
    const quits: number[] = [];
    let quitDone: () => void = () => {};
    const quitted = new Promise<void>((resolve) => (quitDone = resolve));
    const onBeforeQuit = quitAfterClose(pending.close, () => {
      quits.push(1);
      quitDone();
    });

    const first = quitEvent();
    onBeforeQuit(first);
    expect(first.prevented).toBe(true);
    expect(pending.calls()).toBe(1);

    // A second quit request while closing is held too, without closing twice.
    const second = quitEvent();
    onBeforeQuit(second);
    expect(second.prevented).toBe(true);
    expect(pending.calls()).toBe(1);
    expect(quits).toEqual([]);

    pending.finish();
    await quitted;
    expect(quits).toEqual([1]);

    // The quit that follows passes.
    const third = quitEvent();
    onBeforeQuit(third);
    expect(third.prevented).toBe(false);
    expect(pending.calls()).toBe(1);
  });

  it('still quits when closing fails, and reports the error', async () => {
    const pending = pendingClose();
    const errors: unknown[] = [];
    let quitDone: () => void = () => {};
    const quitted = new Promise<void>((resolve) => (quitDone = resolve));
    const onBeforeQuit = quitAfterClose(pending.close, quitDone, (error) => errors.push(error));
    onBeforeQuit(quitEvent());
    pending.finish(new Error('database busy'));
    await quitted;
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('database busy');
  });
});
