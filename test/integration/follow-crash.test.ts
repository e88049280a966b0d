import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/test-server.js';
import { FOLLOW_TEMP, followed, followTemps, mirrored, publicSyncFolder, settledOnA, treeOf, useTempTrash, write } from './follow-helpers.js';
import { type Key } from './sync-helpers.js';
import { until } from '../helpers/until.js';
import { MiB, randomData } from './uploads-helpers.js';

/**
 * Issue 24, "Tested on real parts": B, a real `pinfold serve` process following A's name, killed with kill -9
 * while it writes a large version into its folder. What it leaves: temporary files only, never a torn file under
 * a real name; started again, it finishes the version, removes the temporary files and holds A's folder exactly.
 */

const BIG_FILES = 8;
const BIG_BYTES = 16 * MiB;

describe('a follower killed mid-apply (issue 24)', () => {
  let a: TestServer;
  let bDir: string;
  let folderA: string;
  let folderB: string;
  let idA: string;
  const procs: ServeProcess[] = [];
  const temps: string[] = [];

  const startB = async (): Promise<{ url: string; key: Key; proc: ServeProcess }> => {
    const proc = startServe(['--data', bDir, '--port', '0', '--fetch-from', a.url, '--routing', a.url]);
    procs.push(proc);
    const url = await proc.listening(60_000);
    return { url, key: JSON.parse(readFileSync(path.join(bDir, 'owner-key.json'), 'utf8')) as Key, proc };
  };

  beforeAll(async () => {
    // The children inherit this process's environment: their trash is the temp one too.
    temps.push(path.dirname(await useTempTrash()));
    bDir = await makeTempDir('pinfold-follow-b-');
    folderA = await makeTempDir('pinfold-follow-folder-a-');
    folderB = await makeTempDir('pinfold-follow-folder-b-');
    temps.push(bDir, folderA, folderB);
    a = await startTestServer({ publicGateway: true, network: {} });
  });
  afterAll(async () => {
    for (const proc of procs) {
      if (proc.child.exitCode === null && proc.child.signalCode === null) {
        proc.child.kill('SIGKILL');
        await proc.exited();
      }
    }
    await a?.stop();
    for (const dir of temps) await rm(dir, { recursive: true, force: true });
  });

  it('kill -9 while B writes a large version: nothing torn under a real name; restarted, B converges and cleans up', async () => {
    await write(folderA, 'small.txt', 'before\n');
    for (let i = 0; i < BIG_FILES; i++) await write(folderA, `big/part-${i}.bin`, `old part ${i}\n`);
    const first = await publicSyncFolder(a, a.owner, folderA);
    idA = first.id;
    const b = await startB();
    const row = await followed(b, b.key, { name: `${a.url}/ipns/${first.name}`, path: folderB });
    await mirrored(b, b.key, row.id, { root: first.root, folder: folderA }, folderB);
    const oldTree = treeOf(folderA);

    // The large version: every big part replaced with 16 MiB of its own.
    for (let i = 0; i < BIG_FILES; i++) await write(folderA, `big/part-${i}.bin`, randomData(BIG_BYTES));
    await write(folderA, 'small.txt', 'after\n');
    const root = await settledOnA(a, a.owner, idA, folderA);
    const newTree = treeOf(folderA);

    // Killed at the first temporary file seen: B is writing the version.
    await until(
      'B to start writing the version',
      () => {
        if (followTemps(folderB).length === 0) return undefined;
        b.proc.child.kill('SIGKILL');
        return true;
      },
      120_000,
    );
    await b.proc.exited();

    const left = treeOf(folderB, (rel) => FOLLOW_TEMP.test(path.posix.basename(rel)));
    for (const [rel, what] of Object.entries(left)) {
      expect([oldTree[rel], newTree[rel]], `${rel} after the kill`).toContain(what);
    }
    expect(followTemps(folderB).length).toBeGreaterThan(0);
    expect(Object.keys(left).sort()).toEqual(Object.keys(oldTree).sort());

    const again = await startB();
    const held = await mirrored(again, again.key, row.id, { root, folder: folderA }, folderB, 120_000);
    expect(held.local_changes).toEqual([]);
    expect(followTemps(folderB)).toEqual([]);
    expect(treeOf(folderB)).toEqual(newTree);
    again.proc.child.kill('SIGTERM');
    expect(await again.proc.exited()).toBe(0);
  });
});
