import { describe, expect, it } from 'vitest';
import { quitAfterClose } from '../../../main/desktop/lifecycle.js';
import { deferred } from '../../helpers/deferred.js';

function quitEvent() {
  const event = { prevented: false, preventDefault: () => void (event.prevented = true) };
  return event;
}

/** A close() the test finishes by hand, to look at the state in between. */
function pendingClose() {
  let closing = deferred();
  let calls = 0;
  const close = () => {
    calls += 1;
    closing = deferred();
    return closing.promise;
  };
  return { close, finish: (error?: Error) => (error ? closing.reject(error) : closing.resolve()), calls: () => calls };
}

describe('quitAfterClose', () => {
  it('holds the quit until the service has closed, then quits once', async () => {
    const pending = pendingClose();
    const quits: number[] = [];
    const quitted = deferred();
    const onBeforeQuit = quitAfterClose(pending.close, () => {
      quits.push(1);
      quitted.resolve();
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
    await quitted.promise;
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
    const quitted = deferred();
    const onBeforeQuit = quitAfterClose(pending.close, quitted.resolve, (error) => errors.push(error));
    onBeforeQuit(quitEvent());
    pending.finish(new Error('database busy'));
    await quitted.promise;
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('database busy');
  });
});
