import { MemoryBlockstore } from 'blockstore-core/memory';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BadInputError, ConflictError, NotFoundError } from '../../main/base/errors.js';
import { createSyncService, type SyncService } from '../../main/sync/sync-service.js';
import { createFakeDomains, createSyncTestEnv, expectedRoot, type SyncTestEnv } from '../helpers/sync-fixtures.js';
import { FAST_TIMING, fakeSyncDomains, type FakeSyncDomains } from './sync-runner-kit.js';
import { until } from '../helpers/until.js';
import { SQLITE_QUERIES } from '../../main/store/db/queries.js';

const { deleteSyncFolder, getSyncFolder } = SQLITE_QUERIES.sync;

const { insertName, noteSeenRecord, setNamePublic, updateNameRecord } = SQLITE_QUERIES.names;

describe('sync service (the sync folders of an account, over fake domains)', () => {
  let env: SyncTestEnv;
  let domains: FakeSyncDomains;
  let service: SyncService;
  let dir: string;

  beforeEach(async () => {
    env = await createSyncTestEnv();
    // The environment's own folder row is not this service's business here.
    deleteSyncFolder(env.db, env.folderId);
    domains = fakeSyncDomains(env, createFakeDomains(env.db));
    service = createSyncService({ domains, timing: FAST_TIMING, blocks: new MemoryBlockstore() });
    dir = path.join(env.base, 'photos');
    await mkdir(dir);
    await writeFile(path.join(dir, 'a.jpg'), 'pixels');
  });
  afterEach(async () => {
    await service.close();
    await env.cleanup();
  });

  it('adds a folder and answers once its first scan is pinned, with its root and new IPNS name', async () => {
    const added = await service.add(1, { path: dir });
    expect(added).toEqual({ id: added.id, path: dir, root: await expectedRoot(dir), ipns_name: 'k51-created-0' });
    const [row] = await service.list(1);
    expect(row).toMatchObject({ id: added.id, path: dir, root: added.root, ipns_name: 'k51-created-0', ignore: [] });
    expect(await service.list(2)).toEqual([]);
    expect(await service.status(2, added.id)).toBeUndefined();
  });

  it("shows whether the folder's name is public (the mark lives on the name: name/public)", async () => {
    const added = await service.add(1, { path: dir });
    expect((await service.list(1))[0]?.public).toBe(false);
    const id = insertName(env.db, {
      accountId: 1,
      name: added.ipns_name,
      alias: null,
      keyType: 'Ed25519',
      keySealed: new Uint8Array([1]),
      value: added.root,
      seq: 0,
      record: new Uint8Array([1]),
      createdAt: 1,
      publishAt: 1,
      validUntil: 2,
    });
    expect((await service.list(1))[0]?.public).toBe(false);
    setNamePublic(env.db, id, true);
    expect((await service.list(1))[0]?.public).toBe(true);
    expect((await service.status(1, added.id))?.public).toBe(true);
    expect((await service.detail(1, added.id)).public).toBe(true);
  });

  it('shows a newer record of the name seen elsewhere as its conflict, the CID it points at as a root reads; none once the name is ahead', async () => {
    const added = await service.add(1, { path: dir });
    const id = insertName(env.db, {
      accountId: 1,
      name: added.ipns_name,
      alias: null,
      keyType: 'Ed25519',
      keySealed: new Uint8Array([1]),
      value: added.root,
      seq: 3,
      record: new Uint8Array([1]),
      createdAt: 1,
      publishAt: 1,
      validUntil: 2,
    });
    expect((await service.list(1))[0]?.conflict).toBeNull();
    const other = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';
    noteSeenRecord(env.db, id, { seq: 4, value: `/ipfs/${other}`, source: 'http://127.0.0.1:9', seenAt: 50 });
    const conflict = { seq: 4, value: other, seen_at: 50, source: 'http://127.0.0.1:9' };
    expect((await service.list(1))[0]?.conflict).toEqual(conflict);
    expect((await service.detail(1, added.id)).conflict).toEqual(conflict);
    updateNameRecord(env.db, { id, expectedSeq: 3, seq: 5, value: added.root, record: new Uint8Array([2]), publishAt: 2, validUntil: 3 });
    expect((await service.status(1, added.id))?.conflict).toBeNull();
  });

  it('publishes a paused folder s version on demand: 409 at a conflict, over it with force; no name 409', async () => {
    const added = await service.add(1, { path: dir });
    await service.pause(1, added.id);
    domains.conflicting = true;
    await expect(service.publish(1, added.id, false)).rejects.toThrow(ConflictError);
    await expect(service.publish(2, added.id, true)).rejects.toThrow(NotFoundError);
    const shown = await service.publish(1, added.id, true);
    expect(shown).toMatchObject({ id: added.id, state: 'paused', root: added.root });
    expect(domains.publishes.at(-1)).toEqual({ name: 'k51-created-0', root: added.root, force: true, outcome: 'published' });
    const nameless = path.join(env.base, 'nameless');
    await mkdir(nameless);
    const plain = await service.add(1, { path: nameless, ipns: false });
    await expect(service.publish(1, plain.id, true)).rejects.toThrow(/no IPNS name/);
  });

  it('adds without an IPNS name when asked, and answers at once with wait: false', async () => {
    const added = await service.add(1, { path: dir, ipns: false }, { wait: false });
    expect(added).toMatchObject({ path: dir, root: '', ipns_name: '' });
    await until('the first root', () => (getSyncFolder(env.db, added.id)?.rootCid ? true : undefined));
    expect(domains.createdNames).toEqual([]);
  });

  it('refuses a path that is not an absolute existing folder (400), or one already synced or overlapping (409)', async () => {
    await expect(service.add(1, { path: 'relative/path' })).rejects.toBeInstanceOf(BadInputError);
    await expect(service.add(1, { path: path.join(env.base, 'missing') })).rejects.toBeInstanceOf(BadInputError);
    await expect(service.add(1, { path: path.join(dir, 'a.jpg') })).rejects.toBeInstanceOf(BadInputError);
    await service.add(1, { path: dir });
    await expect(service.add(1, { path: dir })).rejects.toBeInstanceOf(ConflictError);
    await mkdir(path.join(dir, 'inner'));
    await expect(service.add(1, { path: path.join(dir, 'inner') })).rejects.toBeInstanceOf(ConflictError);
    await expect(service.add(1, { path: env.base })).rejects.toBeInstanceOf(ConflictError);
  });

  it('undoes an add whose first sync fails', async () => {
    domains.failing = new Error('disk on fire');
    await expect(service.add(1, { path: dir })).rejects.toThrow('disk on fire');
    expect(await service.list(1)).toEqual([]);
  });

  it('pauses (no runner: rescan and retry are 409), resumes, and removes a folder', async () => {
    const { id } = await service.add(1, { path: dir });
    await service.pause(1, id);
    expect(await service.status(1, id)).toMatchObject({ state: 'paused' });
    await expect(service.rescan(1, id)).rejects.toBeInstanceOf(ConflictError);
    await expect(service.retry(1, id)).rejects.toBeInstanceOf(ConflictError);
    await service.resume(1, id);
    await until('idle', async () => ((await service.status(1, id))?.state === 'idle' ? true : undefined));
    await expect(service.retry(1, id)).rejects.toThrow(/not in error/);
    await service.remove(1, id);
    expect(await service.list(1)).toEqual([]);
  });

  it("keeps another account's folder and unknown ids out of reach (404)", async () => {
    const { id } = await service.add(1, { path: dir });
    await expect(service.pause(2, id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.remove(1, 'no-such-id')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('sets ignore patterns and syncs again with them: a newly ignored file leaves the root', async () => {
    const { id } = await service.add(1, { path: dir });
    await writeFile(path.join(dir, 'draft.txt'), 'scratch');
    await service.rescan(1, id);
    await until('draft.txt in the root', async () => ((await service.status(1, id))?.root === (await expectedRoot(dir)) ? true : undefined));
    await service.setIgnore(1, id, ['draft.*']);
    const want = await expectedRoot(dir, (rel) => !rel.startsWith('draft.'));
    await until('draft.txt out of the root', async () => ((await service.status(1, id))?.root === want ? true : undefined));
    expect((await service.detail(1, id)).ignore).toEqual(['draft.*']);
  });

  it('starts every folder again on start, but not one its user paused; refuses changes once closing', async () => {
    const { id } = await service.add(1, { path: dir });
    await service.pause(1, id);
    await service.close();
    service = createSyncService({ domains, timing: FAST_TIMING, blocks: new MemoryBlockstore() });
    await service.startAll();
    expect(await service.status(1, id)).toMatchObject({ state: 'paused' });
    await service.resume(1, id);
    await until('idle', async () => ((await service.status(1, id))?.state === 'idle' ? true : undefined));
    await service.close();
    await expect(service.add(1, { path: dir })).rejects.toThrow(/shutting down/);
  });
});
