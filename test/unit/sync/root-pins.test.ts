import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import { afterEach, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../main/base/errors.js';
import { addPin } from '../../../main/pins/pins.js';
import { createSyncRootPins } from '../../../main/sync/root-pins.js';
import { createPinsKit, storeDag, type PinsKit } from '../pins/pins-kit.js';
import { rawBlock, sha256Digest } from '../../helpers/raw-blocks.js';
import { SQLITE_QUERIES } from '../../../main/store/db/queries.js';

const { insertSyncFolder } = SQLITE_QUERIES.sync;

const { pinOf } = SQLITE_QUERIES.pins;

let kit: PinsKit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

/** A sync folder row whose published root is `root`. */
function syncFolderAt(k: PinsKit, id: string, root: string): void {
  const { db } = k;
  insertSyncFolder(db, { id, accountId: k.accountId, path: `/data/${id}`, ipnsName: '', caseInsensitive: false, ignorePatterns: [], createdAt: 1 });
  db.prepare('UPDATE sync_folders SET root_cid = ? WHERE id = ?').run(root, id);
}

/** A dag-pb root whose only child is not stored: its pin can never be complete. */
async function storeIncompleteRoot(k: PinsKit): Promise<CID> {
  const missing = rawBlock('never stored');
  const node = dagPb.encode(dagPb.prepare({ Links: [{ Hash: missing.cid, Name: 'gone', Tsize: missing.bytes.byteLength }] }));
  const root = CID.createV1(dagPb.code, sha256Digest(node));
  await k.blocks.put(root, node);
  return root;
}

const statusOf = (k: PinsKit, cid: CID): string | undefined => pinOf(k.db, k.accountId, cid.toString())?.status;

describe('sync root pins (moved through the folders pin-move policy)', () => {
  it("pins the new root under the folder's name and unpins the old one", async () => {
    kit = await createPinsKit();
    const { ctx, blocks, accountId } = kit;
    const oldRoot = await storeDag(blocks, 'old', 2);
    const newRoot = await storeDag(blocks, 'new', 2);
    await addPin(ctx, accountId, oldRoot.root);
    syncFolderAt(kit, 'f-1', oldRoot.root.toString());
    const movePin = createSyncRootPins(ctx.accounts.store, ctx);
    await ctx.gcLock.shared((hold) => movePin(accountId, newRoot.root.toString(), oldRoot.root.toString(), 'sync /data/f-1', hold));
    expect(pinOf(kit.db, accountId, newRoot.root.toString())).toMatchObject({ status: 'pinned', name: 'sync /data/f-1' });
    expect(statusOf(kit, oldRoot.root)).toBe('unpinning');
  });

  it('keeps the old root pinned while another sync folder publishes it', async () => {
    kit = await createPinsKit();
    const { ctx, blocks, accountId } = kit;
    const shared = await storeDag(blocks, 'shared', 1);
    const newRoot = await storeDag(blocks, 'new', 1);
    await addPin(ctx, accountId, shared.root);
    syncFolderAt(kit, 'f-1', shared.root.toString());
    syncFolderAt(kit, 'f-2', shared.root.toString());
    const movePin = createSyncRootPins(ctx.accounts.store, ctx);
    await ctx.gcLock.shared((hold) => movePin(accountId, newRoot.root.toString(), shared.root.toString(), 'sync /data/f-1', hold));
    expect(statusOf(kit, shared.root)).toBe('pinned');
  });

  it('refuses a new root whose blocks are missing (NotFoundError), undoing only a pin it made', async () => {
    kit = await createPinsKit();
    const { ctx, accountId } = kit;
    const movePin = createSyncRootPins(ctx.accounts.store, ctx);
    const incomplete = await storeIncompleteRoot(kit);
    await expect(ctx.gcLock.shared((hold) => movePin(accountId, incomplete.toString(), undefined, 'sync /x', hold))).rejects.toBeInstanceOf(NotFoundError);
    expect(statusOf(kit, incomplete)).toBe('unpinning');

    // A pin the account already had (taken back here, still waiting for its blocks) is left as it was.
    await addPin(ctx, accountId, incomplete);
    expect(statusOf(kit, incomplete)).toBe('pinning');
    await expect(ctx.gcLock.shared((hold) => movePin(accountId, incomplete.toString(), undefined, 'sync /x', hold))).rejects.toBeInstanceOf(NotFoundError);
    expect(statusOf(kit, incomplete)).toBe('pinning');
  });
});
