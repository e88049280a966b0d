import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createUser, createUserKey, expectError } from '../helpers/account-api.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import {
  expectNotOperable,
  expectRejected,
  folderImport,
  folderOperation,
  importOk,
  operateOk,
  pinAdd,
  pinnedFile,
  pinRecord,
  referenceDirectory,
  snapshot,
  text,
} from './folders-helpers.js';
import { EMPTY_DIR_V1, gatewayGet, stats, uploadCid, type Key } from './uploads-helpers.js';

/**
 * POST /api/v0/folder/operation over HTTP (spec "Folder", its five rules; contract section 3): every
 * rejected call answers its status and leaves pins, counters and roots as they were.
 */
describe('folder operation', () => {
  let server: TestServer;
  let admin: Key;
  const content: Record<string, Uint8Array> = {
    a: text('alpha\n'),
    b: text('bravo bravo\n'),
    c: text('charlie charlie charlie\n'),
    d: text('delta\n'),
    e: text('echo echo\n'),
  };
  const cids: Record<string, string> = {};
  /** A pinned, imported directory {a.txt, b.txt, c.txt}. */
  let base: string;

  /** The importer's root for `names` (name → key of `content`). */
  function reference(names: Record<string, string>): Promise<string> {
    return referenceDirectory(new Map(Object.entries(names).map(([name, file]) => [name, content[file] as Uint8Array])));
  }

  beforeAll(async () => {
    server = await startTestServer();
    admin = server.owner;
    for (const [name, bytes] of Object.entries(content)) cids[name] = await pinnedFile(server, admin, bytes);
    await pinAdd(server, admin, EMPTY_DIR_V1);
    await importOk(server, admin, EMPTY_DIR_V1);
    base = await operateOk(server, admin, {
      cid: EMPTY_DIR_V1,
      add: [
        ['a.txt', cids.a as string],
        ['b.txt', cids.b as string],
        ['c.txt', cids.c as string],
      ],
      pin_new: true,
    });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('answers the new root, the one ipfs-unixfs-importer builds for the same entries; flags default to false', async () => {
    expect(base).toBe(await reference({ 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c' }));
    const before = await snapshot(server, admin);
    const root = await operateOk(server, admin, { cid: base, add: [['d.txt', cids.d as string]], remove: ['a.txt'] });
    expect(root).toBe(await reference({ 'b.txt': 'b', 'c.txt': 'c', 'd.txt': 'd' }));
    // Neither pin_new nor unpin_old: the pins and counters are those of before the call.
    expect(await snapshot(server, admin)).toEqual(before);

    const d = await gatewayGet(server, admin, `/ipfs/${root}/d.txt`);
    expect(d.status).toBe(200);
    expect(d.bytes.toString()).toBe('delta\n');
    expect((await gatewayGet(server, admin, `/ipfs/${root}/a.txt`)).status).toBe(404);
    expect((await gatewayGet(server, admin, `/ipfs/${base}/a.txt`)).bytes.toString()).toBe('alpha\n');
  });

  it('replaces an existing link of the same name', async () => {
    const root = await operateOk(server, admin, { cid: base, add: [['b.txt', cids.e as string]] });
    expect(root).toBe(await reference({ 'a.txt': 'a', 'b.txt': 'e', 'c.txt': 'c' }));
    expect((await gatewayGet(server, admin, `/ipfs/${root}/b.txt`)).bytes.toString()).toBe('echo echo\n');
  });

  it('operates again on a root an operation made, without a new import, for any number of steps', async () => {
    // A call without changes answers the old root itself.
    expect(await operateOk(server, admin, { cid: base })).toBe(base);
    let root = base;
    const names: Record<string, string> = { 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c' };
    for (const [step, file] of ['d', 'e', 'a'].entries()) {
      root = await operateOk(server, admin, { cid: root, add: [[`step-${step}.txt`, cids[file] as string]] });
      names[`step-${step}.txt`] = file;
    }
    root = await operateOk(server, admin, { cid: root, remove: ['step-0.txt', 'a.txt'] });
    delete names['step-0.txt'];
    delete names['a.txt'];
    expect(root).toBe(await reference(names));
  });

  it('pin_new pins the new root with its DAG size; unpin_old moves the pin off the old root', async () => {
    const old = await operateOk(server, admin, { cid: base, add: [['pin-1.txt', cids.d as string]], pin_new: true });
    const before = await stats(server, admin);
    const root = await operateOk(server, admin, { cid: old, add: [['pin-2.txt', cids.e as string]], pin_new: true, unpin_old: true });
    expect(root).toBe(await reference({ 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c', 'pin-1.txt': 'd', 'pin-2.txt': 'e' }));

    const block = await gatewayGet(server, admin, `/ipfs/${root}`, { query: { format: 'raw' } });
    expect(block.status).toBe(200);
    const dagBytes = block.bytes.length + ['a', 'b', 'c', 'd', 'e'].reduce((sum, file) => sum + (content[file] as Uint8Array).length, 0);
    expect(await pinRecord(server, admin, root)).toMatchObject({ cid: root, status: 'pinned', size: dagBytes });
    expect((await pinRecord(server, admin, old))?.status).toBe('unpinning');
    const after = await stats(server, admin);
    // An unpinning pin still counts until the next GC cycle (contract section 6).
    expect(after.pinned_count - before.pinned_count).toBe(1);
    expect(after.pinned_bytes - before.pinned_bytes).toBe(dagBytes);
  });

  it('rejects a removed name that does not exist with 404, applying none of the call', async () => {
    const before = await snapshot(server, admin);
    const wouldBe = await reference({ 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c', 'z.txt': 'e' });
    const response = await folderOperation(server, admin, { cid: base, add: [['z.txt', cids.e as string]], remove: ['nope.txt'], pin_new: true });
    await expectRejected(server, admin, response, 404, /remove: no entry named "nope.txt"/, before, [wouldBe]);
  });

  it('rejects an added CID the caller has not pinned with 404 (rule 1), as folder import does', async () => {
    const unpinned = await uploadCid(server, admin, text('uploaded, never pinned\n'));
    const before = await snapshot(server, admin);
    const response = await folderOperation(server, admin, {
      cid: base,
      add: [
        ['ok.txt', cids.d as string],
        ['u.txt', unpinned],
      ],
      pin_new: true,
    });
    await expectRejected(server, admin, response, 404, /add\[1\]: cid .* is not pinned/, before);
    expect(await pinRecord(server, admin, unpinned)).toBeNull();
    await expectNotOperable(server, admin, await reference({ 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c', 'ok.txt': 'd' }));
  });

  it('rejects a CID pinned by another account only, and a root imported by another account only, with 404', async () => {
    const uuid = randomUUID();
    await createUser(server, admin, uuid);
    const other = await createUserKey(server, admin, uuid, 'other', ['admin']);
    const theirs = await pinnedFile(server, other, text('only the other account pins this\n'));
    const before = await snapshot(server, admin);
    const otherBefore = await snapshot(server, other);
    const response = await folderOperation(server, admin, { cid: base, add: [['t.txt', theirs]] });
    await expectRejected(server, admin, response, 404, /add\[0\]: cid .* is not pinned/, before);

    // `base` is imported (made) by the owner, not by the other account, which has not pinned it either.
    const onBase = await folderOperation(server, other, { cid: base, add: [['t.txt', theirs]] });
    await expectRejected(server, other, onBase, 404, /cid: .* has not been imported/, otherBefore);
    const importing = await folderImport(server, other, base);
    await expectRejected(server, other, importing, 404, /cid: .* is not pinned by this account/, otherBefore);
  });

  it('rejects unpin_old on an old root the caller has not pinned with 404', async () => {
    const made = await operateOk(server, admin, { cid: base, add: [['np.txt', cids.d as string]] });
    const before = await snapshot(server, admin);
    const wouldBe = await reference({ 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c', 'np.txt': 'd', 'np2.txt': 'e' });
    const response = await folderOperation(server, admin, { cid: made, add: [['np2.txt', cids.e as string]], pin_new: true, unpin_old: true });
    await expectRejected(server, admin, response, 404, /unpin_old: cid .* is not pinned/, before, [wouldBe]);
  });

  it('rejects the same name in add and remove (rule 2), or twice in one list, with 400', async () => {
    const before = await snapshot(server, admin);
    const wouldBe = await reference({ 'b.txt': 'b', 'c.txt': 'c', 'a.txt': 'd' });
    const both = await folderOperation(server, admin, { cid: base, add: [['a.txt', cids.d as string]], remove: ['a.txt'] });
    await expectRejected(server, admin, both, 400, /remove\[0\]: "a.txt" is also given in add\[0\]/, before, [wouldBe]);
    const twice = await folderOperation(server, admin, {
      cid: base,
      add: [
        ['q.txt', cids.d as string],
        ['q.txt', cids.e as string],
      ],
    });
    await expectRejected(server, admin, twice, 400, /add\[1\]: "q.txt" is also given in add\[0\]/, before);
    const removedTwice = await folderOperation(server, admin, { cid: base, remove: ['a.txt', 'a.txt'] });
    await expectRejected(server, admin, removedTwice, 400, /remove\[1\]/, before, [await reference({ 'b.txt': 'b', 'c.txt': 'c' })]);
  });

  it('rejects unpin_old without pin_new with 400, whatever else the call holds', async () => {
    const before = await snapshot(server, admin);
    const wouldBe = await reference({ 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c', 'u.txt': 'd' });
    for (const flags of [{ unpin_old: true }, { unpin_old: true, pin_new: false }]) {
      const response = await folderOperation(server, admin, { cid: base, add: [['u.txt', cids.d as string]], ...flags });
      await expectRejected(server, admin, response, 400, /unpin_old: requires pin_new/, before, [wouldBe]);
    }
    expect((await pinRecord(server, admin, base))?.status).toBe('pinned');
  });

  it('rejects pin_new when the new root is already pinned with 409 (rule 3)', async () => {
    const add: Array<[string, string]> = [['twice.txt', cids.e as string]];
    const pinned = await operateOk(server, admin, { cid: base, add, pin_new: true });
    const before = await snapshot(server, admin);
    const again = await folderOperation(server, admin, { cid: base, add, pin_new: true });
    await expectRejected(server, admin, again, 409, /pin_new: the new root .* is already pinned/, before);
    const withUnpin = await folderOperation(server, admin, { cid: base, add, pin_new: true, unpin_old: true });
    await expectRejected(server, admin, withUnpin, 409, /pin_new/, before);
    expect((await pinRecord(server, admin, base))?.status).toBe('pinned');
    // Without pin_new the same call is fine: it answers the root that is already there.
    expect(await operateOk(server, admin, { cid: base, add })).toBe(pinned);
  });

  it('rejects unpin_old while another pin of the caller still reaches the old root with 409 (rule 4)', async () => {
    const old = await operateOk(server, admin, { cid: base, add: [['kept.txt', cids.d as string]], pin_new: true });
    const parent = await operateOk(server, admin, { cid: EMPTY_DIR_V1, add: [['sub', old]], pin_new: true });
    const before = await snapshot(server, admin);
    const wouldBe = await reference({ 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c', 'kept.txt': 'd', 'more.txt': 'e' });
    const body = { cid: old, add: [['more.txt', cids.e as string]] as Array<[string, string]>, pin_new: true, unpin_old: true };
    const response = await folderOperation(server, admin, body);
    await expectRejected(server, admin, response, 409, /unpin_old: the old root .* is still used by another pinned DAG/, before, [wouldBe]);

    // Once the parent's pin is removed, nothing else reaches the old root: the same call succeeds.
    expect((await call(server, 'POST', '/api/v0/pin/rm', { key: admin, query: { arg: parent } })).status).toBe(200);
    expect(await operateOk(server, admin, body)).toBe(wouldBe);
    expect((await pinRecord(server, admin, old))?.status).toBe('unpinning');
    expect((await pinRecord(server, admin, wouldBe))?.status).toBe('pinned');
  });

  it.each([
    ['a slash', 'a/b', /must not contain "\/"/],
    ['only a slash', '/', /must not contain "\/"/],
    ['NUL', 'a\u0000b', /must not contain NUL/],
    ['the empty name', '', /must not be empty/],
    ['.', '.', /"\." is not allowed/],
    ['..', '..', /"\.\." is not allowed/],
    ['a lone surrogate', 'bad\ud800', /not valid UTF-8/],
  ])('rejects a name with %s with 400, in add and in remove', async (_label, name, msg) => {
    const before = await snapshot(server, admin);
    const added = await folderOperation(server, admin, {
      cid: base,
      add: [
        ['fine.txt', cids.d as string],
        [name, cids.e as string],
      ],
      pin_new: true,
    });
    // The JSON body reader names a lone surrogate by its place in the body (add[1][0]) before the folder code does.
    await expectRejected(server, admin, added, 400, new RegExp(`add\\[1\\](?: name|\\[0\\]): .*${msg.source}`), before, [
      await reference({ 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c', 'fine.txt': 'd' }),
    ]);
    const removed = await folderOperation(server, admin, { cid: base, remove: ['a.txt', name] });
    await expectRejected(server, admin, removed, 400, new RegExp(`remove\\[1\\]: .*${msg.source}`), before);
  });

  it('accepts UTF-8 names, ordered by their bytes as UnixFS requires', async () => {
    const names: Record<string, string> = { 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c', 'é.txt': 'd', 'Z.txt': 'e', '日本.txt': 'a', 'e\u0301.txt': 'b' };
    const add = Object.entries(names)
      .filter(([name]) => !['a.txt', 'b.txt', 'c.txt'].includes(name))
      .map(([name, file]): [string, string] => [name, cids[file] as string]);
    const root = await operateOk(server, admin, { cid: base, add });
    expect(root).toBe(await reference(names));
    expect((await gatewayGet(server, admin, `/ipfs/${root}/${encodeURIComponent('日本.txt')}`)).bytes.toString()).toBe('alpha\n');
  });

  it('rejects more than 10,000 adds with 400 before reading anything', async () => {
    const before = await snapshot(server, admin);
    const add = Array.from({ length: 10_001 }, (_, i): [string, string] => [`n-${i}`, cids.a as string]);
    const response = await folderOperation(server, admin, { cid: base, add, pin_new: true });
    await expectRejected(server, admin, response, 400, /add: at most 10000 entries a call, got 10001/, before);
  });

  it('rejects malformed bodies with 400 naming the field', async () => {
    const before = await snapshot(server, admin);
    const cases: Array<[unknown, RegExp]> = [
      ['{not json', /JSON|body/i],
      [[], /body/],
      [{}, /cid: must be a CID string/],
      [{ cid: 'not-a-cid' }, /cid: "not-a-cid" is not a valid CID/],
      [{ cid: base, add: 'a.txt' }, /add: must be an array/],
      [{ cid: base, add: [['a.txt']] }, /add\[0\]: must be a \[name, cid\] pair/],
      [{ cid: base, add: [['a.txt', 'nope']] }, /add\[0\] cid: "nope" is not a valid CID/],
      [{ cid: base, remove: [1] }, /remove: must be an array of strings/],
      [{ cid: base, pin_new: 'yes' }, /pin_new: must be a boolean/],
      [{ cid: base, pin_new: true, unpin_old: 1 }, /unpin_old: must be a boolean/],
    ];
    for (const [body, msg] of cases) {
      const response = await folderOperation(server, admin, typeof body === 'string' ? body : JSON.stringify(body));
      await expectRejected(server, admin, response, 400, msg, before);
    }
  });

  it('answers 404 for an old root that was never imported nor made by an operation', async () => {
    const notImported = await reference({ 'never.txt': 'a' });
    const before = await snapshot(server, admin);
    const response = await folderOperation(server, admin, { cid: notImported, add: [['x.txt', cids.a as string]] });
    await expectRejected(server, admin, response, 404, /cid: .* has not been imported to the folder/, before);
  });

  it('needs write, plus pin for pin_new and unpin for unpin_old (403 otherwise)', async () => {
    const writeOnly = await createKey(server, admin, `w-${randomUUID()}`, ['write']);
    const writePin = await createKey(server, admin, `wp-${randomUUID()}`, ['write', 'pin']);
    const readOnly = await createKey(server, admin, `r-${randomUUID()}`, ['read']);
    const before = await snapshot(server, admin);
    const add: Array<[string, string]> = [['perm.txt', cids.d as string]];
    const wouldBe = await reference({ 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c', 'perm.txt': 'd' });
    await expectRejected(server, admin, await folderOperation(server, readOnly, { cid: base, add }), 403, /write/, before, [wouldBe]);
    await expectRejected(server, admin, await folderOperation(server, writeOnly, { cid: base, add, pin_new: true }), 403, /pin/, before, [wouldBe]);
    const unpin = await folderOperation(server, writePin, { cid: base, add, pin_new: true, unpin_old: true });
    await expectRejected(server, admin, unpin, 403, /unpin/, before, [wouldBe]);
    expectError(await folderImport(server, readOnly, base), 403, /write/);
    // With the permissions it needs, the same key may operate (the account imported `base`).
    expect(await operateOk(server, writePin, { cid: base, add, pin_new: true })).toBe(wouldBe);
  });
});
