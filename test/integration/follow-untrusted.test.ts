import { rm } from 'node:fs/promises';
import path from 'node:path';
import { unmarshalIPNSRecord } from 'ipns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSourceProxy, type SourceProxy } from '../helpers/source-proxy.js';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/test-server.js';
import { followed, followTemps, listedRow, mirrored, publicSyncFolder, rowWhen, settledOnA, treeOf, useTempTrash, write } from './follow-helpers.js';
import { until } from '../helpers/until.js';
import { referenceCid } from './uploads-helpers.js';

/**
 * Issue 24, "Tested on real parts": what a follower must not believe. B follows A's name only through a
 * gateway that stands in front of A (test/helpers/source-proxy.ts) and lies when told to: a block whose bytes
 * are not its CID's is refused and nothing is written; a validly signed but older record of the name (A's own,
 * replayed) never takes B's folder back.
 */

const FOLLOW_TIMING = {
  pollMs: 500,
  errorRetryMs: 500,
  maxRetryMs: 2_000,
  push: { errorRetryMs: 500, maxRetryMs: 2_000 },
  pushWaitSeconds: 5,
  fetchStallMs: 2_000,
};

describe('a followed folder believes only what verifies (issue 24)', () => {
  let a: TestServer;
  let b: TestServer;
  let proxy: SourceProxy;
  let folderA: string;
  let folderB: string;
  let idA: string;
  let idB: string;
  let name: string;
  const temps: string[] = [];

  /** A's record of its name as A serves it now. */
  const recordOfA = async (): Promise<Uint8Array> => {
    const answer = await fetch(`${a.url}/ipns/${name}?format=ipns-record`);
    expect(answer.status).toBe(200);
    return new Uint8Array(await answer.arrayBuffer());
  };

  beforeAll(async () => {
    temps.push(path.dirname(await useTempTrash()));
    folderA = await makeTempDir('pinfold-follow-folder-a-');
    folderB = await makeTempDir('pinfold-follow-folder-b-');
    temps.push(folderA, folderB);
    a = await startTestServer({ publicGateway: true, network: {} });
    proxy = await startSourceProxy(() => a.url);
    b = await startTestServer({ network: { routing: [proxy.url], fetchFrom: [proxy.url] } }, {}, undefined, {
      followTiming: FOLLOW_TIMING,
      // A source that sent a wrong block is set aside for a while; here, a short while.
      fetchTuning: { wrongBlockAsideMs: 1_000, backoffBaseMs: 50, backoffMaxMs: 500, roundDelayMs: 200, roundDelayMaxMs: 1_000 },
    });
    await write(folderA, 'a.txt', 'first\n');
    await write(folderA, 'sub/b.txt', 'second\n');
    const added = await publicSyncFolder(a, a.owner, folderA);
    idA = added.id;
    name = added.name;
    idB = (await followed(b, b.owner, { name: `${proxy.url}/ipns/${name}`, path: folderB })).id;
    await mirrored(b, b.owner, idB, { root: added.root, folder: folderA }, folderB);
  });
  afterAll(async () => {
    await b?.stop();
    await proxy?.close();
    await a?.stop();
    for (const dir of temps) await rm(dir, { recursive: true, force: true });
  });

  it('a source that serves a tampered block: refused, nothing written, the folder shows the error; honest again, B catches up', async () => {
    const before = treeOf(folderB);
    const heldBefore = await listedRow(b, b.owner, idB);
    const content = new TextEncoder().encode('the bytes A really has\n');
    const cid = await referenceCid(content);
    proxy.script.tamper = (asked) => (asked.toString() === cid ? new TextEncoder().encode('the bytes a liar sends \n') : undefined);
    try {
      await write(folderA, 'sub/new.txt', content);
      const root = await settledOnA(a, a.owner, idA, folderA);

      const failing = await rowWhen(b, b.owner, idB, 'B to refuse the tampered block', (row) => row.state === 'error' && row.error !== '');
      expect(failing.error).toMatch(/no block of the version/);
      expect(proxy.blocks().some((block) => block.cid === cid && block.status === 200)).toBe(true);
      expect(failing.root).toBe(heldBefore.root);
      expect(failing.seq).toBe(heldBefore.seq);
      expect(treeOf(folderB)).toEqual(before);
      expect(followTemps(folderB)).toEqual([]);
      // Still nothing, a try later.
      const tries = proxy.blocks().filter((block) => block.cid === cid).length;
      await until('B to try again', () => (proxy.blocks().filter((block) => block.cid === cid).length > tries ? true : undefined), 30_000);
      expect(treeOf(folderB)).toEqual(before);
      expect((await listedRow(b, b.owner, idB)).root).toBe(heldBefore.root);

      delete proxy.script.tamper;
      await mirrored(b, b.owner, idB, { root, folder: folderA }, folderB, 60_000);
    } finally {
      delete proxy.script.tamper;
    }
  });

  it('a validly signed record with a lower sequence than the one held is ignored: B’s folder never goes back', async () => {
    const old = await recordOfA();
    const oldSeq = unmarshalIPNSRecord(old).sequence;
    await write(folderA, 'a.txt', 'first, edited\n');
    const root = await settledOnA(a, a.owner, idA, folderA);
    const held = await mirrored(b, b.owner, idB, { root, folder: folderA }, folderB);
    expect(BigInt(held.seq)).toBeGreaterThan(oldSeq);
    const tree = treeOf(folderB);

    // From now on the only source B has answers A's older record, for every question about the name.
    proxy.script.record = old;
    try {
      const asked = proxy.records().length;
      const since = Math.floor(Date.now() / 1000);
      await until('B to ask for the record again', () => (proxy.records().length > asked + 2 ? true : undefined), 30_000);
      const after = await until('B to have looked since', async () => {
        const row = await listedRow(b, b.owner, idB);
        return row.checked_at > since ? row : undefined;
      });
      expect(after).toMatchObject({ root: held.root, seq: held.seq, local_changes: [] });
      expect(after.state).not.toBe('error');
      expect(treeOf(folderB)).toEqual(tree);
    } finally {
      delete proxy.script.record;
    }
  });
});
