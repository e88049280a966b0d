import { describe, expect, it } from 'vitest';
import { DisposalError, DisposalStack } from '../../../main/base/disposal-stack.js';
import { deferred } from '../../helpers/deferred.js';

describe('disposal stack', () => {
  it('closes in the reverse order of registration, whatever the kind of registration', async () => {
    const stack = new DisposalStack();
    const closed: string[] = [];
    stack.defer(() => void closed.push('deferred first'));
    const resource = stack.use({ close: () => void closed.push('used') });
    const adopted = stack.adopt({ name: 'adopted' }, (value) => void closed.push(value.name));
    stack.defer(async () => {
      await Promise.resolve();
      closed.push('deferred last (async)');
    });
    expect(resource.close).toBeTypeOf('function');
    expect(adopted.name).toBe('adopted');
    expect(closed).toEqual([]);
    await stack.disposeAsync();
    expect(closed).toEqual(['deferred last (async)', 'adopted', 'used', 'deferred first']);
  });

  it('waits for each closer before the next one starts', async () => {
    const stack = new DisposalStack();
    const events: string[] = [];
    const slow = deferred();
    stack.defer(() => void events.push('earlier closer'));
    stack.defer(async () => {
      events.push('slow closer started');
      await slow.promise;
      events.push('slow closer done');
    });
    const disposal = stack.disposeAsync();
    await Promise.resolve();
    expect(events).toEqual(['slow closer started']);
    slow.resolve();
    await disposal;
    expect(events).toEqual(['slow closer started', 'slow closer done', 'earlier closer']);
  });

  it('goes on past failing closers and reports every failure together', async () => {
    const stack = new DisposalStack();
    const closed: string[] = [];
    stack.defer(() => void closed.push('first'));
    stack.defer(() => {
      throw new Error('sync failure');
    });
    stack.defer(() => void closed.push('middle'));
    stack.defer(async () => {
      throw new Error('async failure');
    });
    const error: unknown = await stack.disposeAsync().then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(closed).toEqual(['middle', 'first']);
    expect(error).toBeInstanceOf(DisposalError);
    expect(error).toBeInstanceOf(AggregateError);
    const aggregate = error as DisposalError;
    expect(aggregate.errors.map((each: Error) => each.message)).toEqual(['async failure', 'sync failure']);
    expect(aggregate.message).toBe('closing failed: async failure; sync failure');
  });

  it('a single failure is reported the same way (an AggregateError of one)', async () => {
    const stack = new DisposalStack();
    stack.defer(() => Promise.reject(new Error('only failure')));
    await expect(stack.disposeAsync()).rejects.toMatchObject({ name: 'DisposalError', errors: [new Error('only failure')] });
  });

  it('disposes once: a second call waits on the first and closes nothing again', async () => {
    const stack = new DisposalStack();
    let closes = 0;
    const slow = deferred();
    stack.defer(async () => {
      closes++;
      await slow.promise;
    });
    const first = stack.disposeAsync();
    const second = stack.disposeAsync();
    let secondDone = false;
    void second.then(() => (secondDone = true));
    await Promise.resolve();
    expect(secondDone).toBe(false);
    slow.resolve();
    await Promise.all([first, second]);
    await stack.disposeAsync();
    expect(closes).toBe(1);
    expect(stack.disposed).toBe(true);
  });

  it('refuses a registration once disposed, since nothing would ever close it', async () => {
    const stack = new DisposalStack();
    expect(stack.disposed).toBe(false);
    await stack.disposeAsync();
    expect(() => stack.defer(() => undefined)).toThrow(/already disposed/);
    expect(() => stack.use({ close: () => undefined })).toThrow(/already disposed/);
  });

  it('lets null and undefined through use() without registering anything', async () => {
    const stack = new DisposalStack();
    expect(stack.use(null)).toBeNull();
    expect(stack.use(undefined)).toBeUndefined();
    await expect(stack.disposeAsync()).resolves.toBeUndefined();
  });

  it('a closer registered by a failing start still runs when the stack is disposed on the way out', async () => {
    const stack = new DisposalStack();
    const closed: string[] = [];
    const start = async (): Promise<void> => {
      stack.use({ close: () => void closed.push('timer') });
      stack.use({ close: async () => void closed.push('store') });
      throw new Error('the third step failed');
    };
    await expect(
      start().catch(async (error: unknown) => {
        await stack.disposeAsync();
        throw error;
      }),
    ).rejects.toThrow('the third step failed');
    expect(closed).toEqual(['store', 'timer']);
  });
});
