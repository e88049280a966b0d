import { afterEach, describe, expect, it } from 'vitest';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { create as createDigest } from 'multiformats/hashes/digest';
import { BadInputError, ConflictError, LimitReachedError, LockedError, NotFoundError } from '../../../main/base/errors.js';
import { EMPTY_DIRECTORY_CID, createShardCache, editDirectory, lookupEntry } from '../../../main/content/directory/index.js';
import { cumulativeSize } from '../../../main/content/directory/blocks.js';
import { applyFolderOperation, createFoldersContext, importFolder, type FolderOperation } from '../../../main/folders/index.js';
import { sqliteStore } from '../../../main/store/db/sqlite-store.js';
import { type CountingBlockstore, loadCar } from '../content/directory/directory-helpers.js';
import { createKit, fixedClock, type Kit } from './folder-test-kit.js';
import { putRaw } from '../../helpers/raw-blocks.js';
import { deferred } from '../../helpers/deferred.js';

const ACCOUNT = 1;
const OTHER = 2;
let kit: Kit | undefined;

afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

function op(root: CID, fields: Partial<FolderOperation> = {}): FolderOperation {
  return { root, add: [], remove: [], pinNew: false, unpinOld: false, ...fields };
}

/** `blocks` whose reads wait until `open()` (`reading` settles at the first read), then read or, when `failing`, throw it. */
function gatedBlockstore(blocks: CountingBlockstore, failing?: Error) {
  const gate = deferred();
  const started = deferred();
  const gated = Object.assign(Object.create(blocks) as CountingBlockstore, {
    async *get(...args: Parameters<CountingBlockstore['get']>) {
      started.resolve();
      await gate.promise;
      if (failing) throw failing;
      yield* blocks.get(...args);
    },
  });
  return { gated, reading: started.promise, open: gate.resolve };
}

/** A pinned, imported plain folder {a, b} for ACCOUNT, and a pinned file `c`. */
async function importedFolder(k: Kit) {
  const a = await putRaw(k.blockstore, 'a');
  const b = await putRaw(k.blockstore, 'b');
  const c = await putRaw(k.blockstore, 'c');
  const root = (
    await editDirectory(k.blockstore, EMPTY_DIRECTORY_CID, {
      add: [
        ['a', a],
        ['b', b],
      ],
    })
  ).cid;
  for (const cid of [root, a, b, c]) k.pins.pin(ACCOUNT, cid);
  await importFolder(k.ctx, ACCOUNT, root);
  k.blockstore.resetCounts();
  return { root, a, b, c };
}

describe('folder import', () => {
  it('indexes a pinned directory; the roots an operation makes are operable without an import', async () => {
    kit = await createKit();
    const { root, a, c } = await importedFolder(kit);
    expect(await kit.ctx.store.folders.folderRootOf(root.toString())).toMatchObject({ state: 'ready', stats: { kind: 'plain', entries: 2 } });

    const first = await applyFolderOperation(kit.ctx, ACCOUNT, op(root, { add: [['c', c]], remove: ['b'] }));
    const expected = await editDirectory(kit.blockstore, root, { add: [['c', c]], remove: ['b'] });
    expect(first.cid.toString()).toBe(expected.cid.toString());
    const second = await applyFolderOperation(kit.ctx, ACCOUNT, op(first.cid, { add: [['a', c]] }));
    expect((await lookupEntry(kit.blockstore, second.cid, 'a'))?.cid.toString()).toBe(c.toString());
    expect(second.stats).toMatchObject({ kind: 'plain', entries: 2 });
    expect(a).toBeDefined();
  });

  it('refuses a CID the account has not pinned (404) and a non-directory (400), leaving no trace', async () => {
    kit = await createKit();
    const file = await putRaw(kit.blockstore, 'just a file');
    await expect(importFolder(kit.ctx, ACCOUNT, file)).rejects.toBeInstanceOf(NotFoundError);
    kit.pins.pin(ACCOUNT, file);
    await expect(importFolder(kit.ctx, ACCOUNT, file)).rejects.toBeInstanceOf(BadInputError);
    expect(await kit.ctx.store.folders.folderRootOf(file.toString())).toBeNull();
    await expect(applyFolderOperation(kit.ctx, ACCOUNT, op(file))).rejects.toBeInstanceOf(NotFoundError);
  });

  it('answers 423 to an operation while the import runs, and accepts it once the import is done', async () => {
    const { gated, reading, open } = gatedBlockstore(await loadCar('kubo/test/cli/fixtures/TestGatewayHAMTDirectory.car'));
    kit = await createKit(gated);
    const root = CID.parse('bafybeiggvykl7skb2ndlmacg2k5modvudocffxjesexlod2pfvg5yhwrqm');
    kit.pins.pin(ACCOUNT, root);
    const importing = importFolder(kit.ctx, ACCOUNT, root);
    await reading;
    await expect(applyFolderOperation(kit.ctx, ACCOUNT, op(root, { remove: ['1.png'] }))).rejects.toBeInstanceOf(LockedError);
    open();
    expect((await importing).stats).toMatchObject({ kind: 'hamt', entries: 10_100 });
    const result = await applyFolderOperation(kit.ctx, ACCOUNT, op(root, { remove: ['1.png'] }));
    expect(result.stats).toMatchObject({ kind: 'hamt', entries: 10_099 });
  });

  it('lets a second account join a running import: 423 for it too until the import ends, then both operate', async () => {
    const { gated, reading, open } = gatedBlockstore(await loadCar('kubo/test/cli/fixtures/TestGatewayHAMTDirectory.car'));
    kit = await createKit(gated);
    const root = CID.parse('bafybeiggvykl7skb2ndlmacg2k5modvudocffxjesexlod2pfvg5yhwrqm');
    kit.pins.pin(ACCOUNT, root);
    kit.pins.pin(OTHER, root);
    const first = importFolder(kit.ctx, ACCOUNT, root);
    await reading;
    const joined = importFolder(kit.ctx, OTHER, root);
    await new Promise((resolve) => setImmediate(resolve));
    await expect(applyFolderOperation(kit.ctx, OTHER, op(root, { remove: ['1.png'] }))).rejects.toBeInstanceOf(LockedError);
    open();
    expect((await joined).stats).toEqual((await first).stats);
    expect((await applyFolderOperation(kit.ctx, OTHER, op(root, { remove: ['1.png'] }))).stats).toMatchObject({ entries: 10_099 });
    expect((await applyFolderOperation(kit.ctx, ACCOUNT, op(root, { remove: ['2.png'] }))).stats).toMatchObject({ entries: 10_099 });
  });

  it('fails a joined import with the running one, leaving no trace for either account', async () => {
    const failure = new Error('the disk went away');
    const { gated, reading, open } = gatedBlockstore(await loadCar('kubo/test/cli/fixtures/TestGatewayHAMTDirectory.car'), failure);
    kit = await createKit(gated);
    const root = CID.parse('bafybeiggvykl7skb2ndlmacg2k5modvudocffxjesexlod2pfvg5yhwrqm');
    kit.pins.pin(ACCOUNT, root);
    kit.pins.pin(OTHER, root);
    const first = importFolder(kit.ctx, ACCOUNT, root);
    await reading;
    const joined = importFolder(kit.ctx, OTHER, root);
    await new Promise((resolve) => setImmediate(resolve));
    open();
    expect(await Promise.allSettled([first, joined])).toEqual([
      { status: 'rejected', reason: failure },
      { status: 'rejected', reason: failure },
    ]);
    expect(await kit.ctx.store.folders.folderRootOf(root.toString())).toBeNull();
    expect(kit.ctx.imports.size).toBe(0);
    await expect(applyFolderOperation(kit.ctx, OTHER, op(root))).rejects.toBeInstanceOf(NotFoundError);
  });

  it('drops imports a previous process left unfinished', async () => {
    kit = await createKit();
    const store = sqliteStore(kit.db);
    await store.folders.insertImportingFolderRoot('bafybeiczsscdsbs7ffqz55asqdf3smv6klcw3gofszvwlyarci47bgf354', 1);
    await createFoldersContext({ store, blockstore: kit.blockstore, pins: kit.pins, clock: fixedClock });
    expect(await store.folders.folderRootOf('bafybeiczsscdsbs7ffqz55asqdf3smv6klcw3gofszvwlyarci47bgf354')).toBeNull();
  });
});

describe('folder operation rules', () => {
  it('400: unpin_old without pin_new, a name in add and remove, bad names, more than 10,000 adds', async () => {
    kit = await createKit();
    const { root, c } = await importedFolder(kit);
    const cases: FolderOperation[] = [
      op(root, { unpinOld: true }),
      op(root, { add: [['a', c]], remove: ['a'] }),
      op(root, { add: [['x/y', c]] }),
      op(root, { remove: ['..'] }),
      op(root, { add: [['', c]] }),
      op(root, { add: Array.from({ length: 10_001 }, (_, i) => [`n${i}`, c] as const) }),
    ];
    for (const operation of cases) {
      await expect(applyFolderOperation(kit.ctx, ACCOUNT, operation)).rejects.toBeInstanceOf(BadInputError);
    }
    expect(kit.blockstore.puts).toBe(0);
    expect(kit.pins.applied).toEqual([]);
  });

  it('400: an added CID whose hash Pinfold cannot verify, even one pinned before such pins were refused', async () => {
    kit = await createKit();
    const { root } = await importedFolder(kit);
    const blake3 = CID.createV1(raw.code, createDigest(0x1e, new Uint8Array(32).fill(3)));
    kit.pins.pin(ACCOUNT, blake3);
    for (const pinNew of [true, false]) {
      await expect(applyFolderOperation(kit.ctx, ACCOUNT, op(root, { add: [['b3', blake3]], pinNew }))).rejects.toThrow(
        /^add\[0\] cid: .* uses multihash function 0x1e .*cannot verify$/,
      );
    }
    expect(kit.blockstore.puts).toBe(0);
    expect(kit.pins.applied).toEqual([]);
  });

  it('404: a root not imported by this account, an unpinned CID, a missing name', async () => {
    kit = await createKit();
    const { root, c } = await importedFolder(kit);
    const stranger = await putRaw(kit.blockstore, 'not pinned');
    kit.blockstore.resetCounts();
    await expect(applyFolderOperation(kit.ctx, OTHER, op(root))).rejects.toBeInstanceOf(NotFoundError);
    await expect(applyFolderOperation(kit.ctx, ACCOUNT, op(EMPTY_DIRECTORY_CID))).rejects.toBeInstanceOf(NotFoundError);
    await expect(applyFolderOperation(kit.ctx, ACCOUNT, op(root, { add: [['s', stranger]] }))).rejects.toThrow(/add\[0\].*not pinned/);
    await expect(applyFolderOperation(kit.ctx, ACCOUNT, op(root, { add: [['c', c]], remove: ['zzz'] }))).rejects.toThrow(/"zzz"/);
    expect(kit.blockstore.puts).toBe(0);
  });

  it('409: pin_new on an already pinned new root, unpin_old on a root another pin uses; nothing changes', async () => {
    kit = await createKit();
    const { root, c } = await importedFolder(kit);
    const next = await editDirectory(kit.blockstore, root, { add: [['c', c]] });
    kit.blockstore.resetCounts();
    kit.pins.pin(ACCOUNT, next.cid);
    await expect(applyFolderOperation(kit.ctx, ACCOUNT, op(root, { add: [['c', c]], pinNew: true }))).rejects.toBeInstanceOf(ConflictError);
    kit.pins.usedByOthers.add(`${ACCOUNT}:${root.toString()}`);
    await expect(applyFolderOperation(kit.ctx, ACCOUNT, op(root, { remove: ['a'], pinNew: true, unpinOld: true }))).rejects.toThrow(/unpin_old/);
    expect(kit.blockstore.puts).toBe(0);
    expect(kit.pins.applied).toEqual([]);
  });

  it("403 from the plan check before any block is written; pin_new hands the new root's size to the pins", async () => {
    kit = await createKit();
    const { root, c } = await importedFolder(kit);
    const checked: Array<{ pin?: string; pinBytes?: number; unpin?: string }> = [];
    let limit: string | null = 'pinned_count';
    kit.ctx.pins.checkPinChanges = (_accountId, changes) => {
      checked.push({ pin: changes.pin?.toString(), pinBytes: changes.pinBytes, unpin: changes.unpin?.toString() });
      expect(changes.pinParts?.map(String)).toEqual([root.toString(), c.toString()]);
      if (limit !== null) throw new LimitReachedError(limit);
    };
    const call = op(root, { add: [['c', c]], pinNew: true, unpinOld: true });
    await expect(applyFolderOperation(kit.ctx, ACCOUNT, call)).rejects.toBeInstanceOf(LimitReachedError);
    expect(kit.blockstore.puts).toBe(0);
    expect(kit.pins.applied).toEqual([]);
    expect(await kit.ctx.store.folders.folderRootOf(checked[0]?.pin ?? '')).toBeNull();

    limit = null;
    const result = await applyFolderOperation(kit.ctx, ACCOUNT, call);
    expect(checked[1]).toEqual({ pin: result.cid.toString(), pinBytes: checked[0]?.pinBytes, unpin: root.toString() });
    expect(checked[1]?.pinBytes).toBe(await cumulativeSize(kit.blockstore, result.cid, 'cid'));
    expect(kit.pins.applied).toEqual([{ accountId: ACCOUNT, pin: result.cid.toString(), unpin: root.toString() }]);
  });

  it('pin_new + unpin_old move the pin to the new root', async () => {
    kit = await createKit();
    const { root, c } = await importedFolder(kit);
    const result = await applyFolderOperation(kit.ctx, ACCOUNT, op(root, { add: [['c', c]], pinNew: true, unpinOld: true }));
    expect(kit.pins.applied).toEqual([{ accountId: ACCOUNT, pin: result.cid.toString(), unpin: root.toString() }]);
    expect(await kit.pins.isPinned(ACCOUNT, result.cid)).toBe(true);
    expect(await kit.pins.isPinned(ACCOUNT, root)).toBe(false);
  });

  it('operates on the 10,100-entry HAMT fixture reading only the shards on the changed paths', async () => {
    kit = await createKit(await loadCar('kubo/test/cli/fixtures/TestGatewayHAMTDirectory.car'));
    const root = CID.parse('bafybeiggvykl7skb2ndlmacg2k5modvudocffxjesexlod2pfvg5yhwrqm');
    const added = await putRaw(kit.blockstore, 'new picture');
    kit.pins.pin(ACCOUNT, root);
    kit.pins.pin(ACCOUNT, added);
    await importFolder(kit.ctx, ACCOUNT, root);
    // A cold shard cache: the import must not have left anything the operation depends on but the stats.
    kit.ctx.shardCache = createShardCache();
    const fresh = kit.blockstore;
    fresh.resetCounts();
    const result = await applyFolderOperation(kit.ctx, ACCOUNT, op(root, { add: [['new.png', added]], remove: ['9999.png'] }));
    expect(fresh.gets).toBeLessThanOrEqual(6);
    expect(fresh.puts).toBeLessThanOrEqual(6);
    expect(result.stats).toMatchObject({ kind: 'hamt', entries: 10_100 });
    const again = await applyFolderOperation(kit.ctx, ACCOUNT, op(result.cid, { remove: ['new.png'] }));
    expect(again.stats.entries).toBe(10_099);
  });
});
