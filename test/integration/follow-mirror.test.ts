import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { unmarshalIPNSRecord } from 'ipns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncDiscardResult, SyncFolderView } from '../../shared/api-types.js';
import { expectError } from '../helpers/account-api.js';
import { call, makeTempDir, startTestServer, type TestServer } from '../helpers/test-server.js';
import { editStep, follow, followed, listedRow, mirrored, publicSyncFolder, rowWhen, settledOnA, treeOf, useTempTrash, write } from './follow-helpers.js';

/**
 * Issue 24, "Tested on real parts": A is a `--public-gateway` Pinfold with a sync folder whose name is public;
 * B follows that name through A's gateway (its routing endpoint and fetch source are A too). The first copy,
 * a hundred edits of every kind, a local edit on B kept beside the incoming one and discarded, and A stopped
 * and started again: each time B's folder is compared with A's, name for name and byte for byte.
 */

/** B looks often and retries soon: the test waits on its pushes and its recoveries, not on the defaults. */
const FOLLOW_TIMING = { pollMs: 1_000, errorRetryMs: 500, maxRetryMs: 2_000, push: { errorRetryMs: 500, maxRetryMs: 2_000 }, pushWaitSeconds: 5 };

describe('a followed folder mirrors another machine’s sync folder (issue 24)', () => {
  let aDir: string;
  let aPort: number;
  let a: TestServer;
  let b: TestServer;
  let trash: string;
  let folderA: string;
  let folderB: string;
  let idA: string;
  let idB: string;
  let name: string;
  const temps: string[] = [];

  const startA = (port: number): Promise<TestServer> => startTestServer({ publicGateway: true, network: {}, dataDir: aDir, port });
  const rootOfA = (): Promise<string> => settledOnA(a, a.owner, idA, folderA);

  beforeAll(async () => {
    trash = await useTempTrash();
    temps.push(path.dirname(trash));
    aDir = await makeTempDir('pinfold-follow-a-');
    folderA = await makeTempDir('pinfold-follow-folder-a-');
    const parentB = await makeTempDir('pinfold-follow-folder-b-');
    temps.push(aDir, folderA, parentB);
    // B's folder does not exist yet: following makes it.
    folderB = path.join(parentB, 'mirror');
    a = await startA(0);
    aPort = Number(new URL(a.url).port);
    b = await startTestServer({ network: { routing: [a.url], fetchFrom: [a.url] } }, {}, undefined, { followTiming: FOLLOW_TIMING });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    for (const dir of temps) await rm(dir, { recursive: true, force: true });
  });

  it('the first copy: B’s folder is made and holds A’s version, nested folders and an empty one included', async () => {
    await write(folderA, 'readme.txt', 'hello from A\n');
    await write(folderA, 'docs/guide/intro.md', '# Intro\n');
    await write(folderA, 'docs/guide/big.bin', Buffer.alloc(3 * 1024 * 1024 + 17, 7));
    await write(folderA, 'docs/notes.txt', 'notes\n');
    await mkdir(path.join(folderA, 'empty'));
    const added = await publicSyncFolder(a, a.owner, folderA);
    idA = added.id;
    name = added.name;

    const row = await followed(b, b.owner, { name: `${a.url}/ipns/${name}`, path: folderB });
    idB = row.id;
    expect(row).toMatchObject({ mode: 'follow', ipns_name: name, source: `${a.url}/ipns/${name}`, from: [a.url], path: folderB });
    const held = await mirrored(b, b.owner, idB, { root: added.root, folder: folderA }, folderB);
    // The sequence of the record A publishes.
    const record = await fetch(`${a.url}/ipns/${name}?format=ipns-record`);
    expect(held).toMatchObject({ mode: 'follow', seq: Number(unmarshalIPNSRecord(new Uint8Array(await record.arrayBuffer())).sequence), local_changes: [] });
    expect(held.checked_at).toBeGreaterThan(0);
    expect(treeOf(folderB)['empty']).toBe('dir');
    // Listed with the synced folders; never published by B.
    const names = await call<{ data: { name: string }[] }>(b, 'GET', '/api/v0/ipns', { key: b.owner });
    expect(names.json.data.map((entry) => entry.name)).not.toContain(name);
  });

  it('a folder already followed, or inside one, is refused with 409 and a name that is not one with 400; nothing is added', async () => {
    const before = (await call<{ total: number }>(b, 'GET', '/api/v0/sync', { key: b.owner })).json.total;
    expectError(await follow(b, b.owner, { name, path: folderB }), 409, /./, 'conflict');
    expectError(await follow(b, b.owner, { name, path: path.join(folderB, 'docs') }), 409, /./);
    expectError(await follow(b, b.owner, { name: 'not-a-name', path: await makeTempDir('pinfold-follow-bad-') }), 400, /name/);
    expect((await call<{ total: number }>(b, 'GET', '/api/v0/sync', { key: b.owner })).json.total).toBe(before);
  });

  it('a hundred edits, renames and deletes of files and folders on A reach B’s folder byte for byte', async () => {
    const live = ['readme.txt', 'docs/guide/intro.md', 'docs/guide/big.bin', 'docs/notes.txt'];
    const done: string[] = [];
    // Five rounds of twenty: each round is one or a few versions on A, each must land whole on B.
    for (let round = 0; round < 5; round++) {
      for (let step = round * 20; step < round * 20 + 20; step++) done.push(await editStep(folderA, live, step));
      const root = await rootOfA();
      const row = await mirrored(b, b.owner, idB, { root, folder: folderA }, folderB);
      expect(row.local_changes, done.join('\n')).toEqual([]);
    }
    expect(done.filter((edit) => edit.startsWith('rename folder')).length).toBeGreaterThan(0);
    expect(done.filter((edit) => edit.startsWith('delete folder')).length).toBeGreaterThan(0);
    // Every version B applied is kept in its history.
    const versions = await call<{ total: number }>(b, 'GET', '/api/v0/sync/versions', { key: b.owner, query: { id: idB } });
    expect(versions.json.total).toBeGreaterThanOrEqual(5);
  });

  it('a local edit on B is never overwritten: the incoming file is written beside it, listed, and discard restores the followed version', async () => {
    await write(folderA, 'shared.txt', 'A’s first words\n');
    await mirrored(b, b.owner, idB, { root: await rootOfA(), folder: folderA }, folderB);
    await writeFile(path.join(folderB, 'shared.txt'), 'B’s own words\n');
    await write(folderB, 'mine.txt', 'added on B\n');
    await writeFile(path.join(folderA, 'shared.txt'), 'A’s new words\n');
    await write(folderA, 'after-local-edit.txt', 'also new on A\n');
    const root = await rootOfA();

    const applied = await rowWhen(
      b,
      b.owner,
      idB,
      'B to apply A’s version beside the local edit',
      (seen) => seen.root === root && seen.state === 'idle' && seen.local_changes.length >= 1,
    );
    expect(applied.local_changes.map((change) => change.path)).toContain('shared.txt');
    // A file only added on B is no update's business; a look at the whole folder (a rescan, or a start) lists it.
    const rescanned = await call(b, 'POST', '/api/v0/sync/rescan', { key: b.owner, query: { id: idB } });
    expect(rescanned.status, rescanned.text).toBe(200);
    const row = await rowWhen(b, b.owner, idB, 'the rescan to list the added file', (seen) => seen.state === 'idle' && seen.local_changes.length >= 2);
    expect(await readFile(path.join(folderB, 'shared.txt'), 'utf8')).toBe('B’s own words\n');
    expect(await readFile(path.join(folderB, 'mine.txt'), 'utf8')).toBe('added on B\n');
    expect(await readFile(path.join(folderB, 'after-local-edit.txt'), 'utf8')).toBe('also new on A\n');
    const shared = row.local_changes.find((change) => change.path === 'shared.txt');
    expect(shared?.change).toBe('modified');
    expect(shared?.beside).toHaveLength(1);
    const beside = shared?.beside[0] as string;
    expect(beside).toMatch(/^shared \(from [^()/]+, \d{4}-\d{2}-\d{2} \d{4}\)\.txt$/);
    expect(await readFile(path.join(folderB, beside), 'utf8')).toBe('A’s new words\n');
    expect(row.local_changes.find((change) => change.path === 'mine.txt')).toMatchObject({ change: 'added', beside: [] });

    // A local change stays one until it is discarded: A's next version leaves it alone too.
    await write(folderA, 'later.txt', 'A’s version after that\n');
    const next = await rootOfA();
    const again = await rowWhen(b, b.owner, idB, 'B at A’s next version', (seen) => seen.root === next && seen.state === 'idle');
    expect(again.local_changes.map((change) => change.path).sort()).toEqual(['mine.txt', 'shared.txt']);
    expect(await readFile(path.join(folderB, 'shared.txt'), 'utf8')).toBe('B’s own words\n');

    const discarded = await call<{ data: SyncDiscardResult }>(b, 'POST', '/api/v0/sync/discard', { key: b.owner, query: { id: idB } });
    expect(discarded.status, discarded.text).toBe(200);
    expect(discarded.json.data.local_changes).toEqual([]);
    expect(discarded.json.data.trashed).toBeGreaterThanOrEqual(2);
    expect(treeOf(folderB)).toEqual(treeOf(folderA));
    expect((await listedRow(b, b.owner, idB)).local_changes).toEqual([]);
    // Nothing of B's was lost: its own words are in the trash.
    const inTrash = readdirSync(path.join(trash, 'files'), { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => readFileSync(path.join(trash, 'files', entry.name), 'utf8'));
    expect(inTrash).toContain('B’s own words\n');
    expect(inTrash).toContain('added on B\n');
    expectError(await call(b, 'POST', '/api/v0/sync/discard', { key: b.owner, query: { id: 'nope' } }), 404, /./);
  });

  it('A stopped: B shows why and keeps trying; A back: B catches up with what A did meanwhile', async () => {
    const before = await listedRow(b, b.owner, idB);
    await a.stop();
    const failing = await rowWhen(b, b.owner, idB, 'B to show the error', (seen) => seen.state === 'error' && seen.error !== '');
    expect(failing.root).toBe(before.root);
    expect(treeOf(folderB)).toEqual(treeOf(folderA));

    await write(folderA, 'while-a-was-down.txt', 'written while A was stopped\n');
    a = await startA(aPort);
    expect(a.url).toBe(`http://127.0.0.1:${aPort}`);
    const root = await rootOfA();
    const row: SyncFolderView = await mirrored(b, b.owner, idB, { root, folder: folderA }, folderB, 90_000);
    expect(row.error).toBe('');
    expect(existsSync(path.join(folderB, 'while-a-was-down.txt'))).toBe(true);
  });
});
