import { afterEach, describe, expect, it } from 'vitest';
import { createReadWriteLock } from '../../../main/base/read-write-lock.js';
import { moveFolderPins } from '../../../main/folders/index.js';
import { addPin, addPinHeld, isPinned, removePin } from '../../../main/pins/pins.js';
import { createPinsKit, storeDag, type PinsKit } from '../pins/pins-kit.js';

let kit: PinsKit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

describe('the folder pin-move policy', () => {
  it('pins the new root and unpins the old one, under the GC hold the caller passes', async () => {
    kit = await createPinsKit();
    const { ctx, blocks, accountId } = kit;
    const oldRoot = await storeDag(blocks, 'old', 2);
    const newRoot = await storeDag(blocks, 'new', 3);
    await addPin(ctx, accountId, oldRoot.root);
    const row = await ctx.gcLock.shared((hold) => moveFolderPins(ctx, hold, accountId, { pin: newRoot.root, name: 'sync /x', unpin: oldRoot.root }));
    expect(row).toMatchObject({ status: 'pinned', name: 'sync /x', size: newRoot.bytes });
    expect((await ctx.accounts.store.pins.pinOf(accountId, oldRoot.root.toString()))?.status).toBe('unpinning');
  });

  it('takes the size of a root made of complete pins from the caller, without a walk', async () => {
    kit = await createPinsKit();
    const { ctx, blocks, accountId } = kit;
    const part = await storeDag(blocks, 'part', 2);
    const whole = await storeDag(blocks, 'whole', 2);
    await addPin(ctx, accountId, part.root);
    const row = await ctx.gcLock.shared((hold) => moveFolderPins(ctx, hold, accountId, { pin: whole.root, pinBytes: 12345, pinParts: [part.root] }));
    expect(row).toMatchObject({ status: 'pinned', size: 12345 });
  });

  it('treats an old root without a pin as unpinned already', async () => {
    kit = await createPinsKit();
    const { ctx, blocks, accountId } = kit;
    const gone = await storeDag(blocks, 'gone', 1);
    await ctx.gcLock.shared((hold) => moveFolderPins(ctx, hold, accountId, { unpin: gone.root }));
    expect(await isPinned(ctx, accountId, gone.root)).toBe(false);
    await addPin(ctx, accountId, gone.root);
    await removePin(ctx, accountId, gone.root);
    await ctx.gcLock.shared((hold) => moveFolderPins(ctx, hold, accountId, { unpin: gone.root }));
    expect((await ctx.accounts.store.pins.pinOf(accountId, gone.root.toString()))?.status).toBe('unpinning');
  });

  it('refuses to pin without a live hold of the GC lock', async () => {
    kit = await createPinsKit();
    const { ctx, blocks, accountId } = kit;
    const dag = await storeDag(blocks, 'dag', 1);
    const stranger = createReadWriteLock();
    await expect(stranger.shared((hold) => addPinHeld(ctx, hold, accountId, dag.root))).rejects.toThrow(/needs its lock held/);
    const expired = await ctx.gcLock.shared(async (hold) => hold);
    await expect(addPinHeld(ctx, expired, accountId, dag.root)).rejects.toThrow(/needs its lock held/);
    expect(await isPinned(ctx, accountId, dag.root)).toBe(false);
  });
});
