import { writeFile } from 'node:fs/promises';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { CID } from 'multiformats/cid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyedGet, pathBlocks } from '../helpers/dag-path.js';
import { startSourceProxy, type SourceProxy } from '../helpers/source-proxy.js';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/test-server.js';
import { followed, mirrored, publicSyncFolder, settledOnA, useTempTrash } from './follow-helpers.js';
import { stats } from './uploads-helpers.js';

/**
 * Issue 24, "Tested on real parts": a 10,000-file folder (one directory, a HAMT) where one file changes. B
 * follows A's name through a gateway in front of A that counts every block it hands out: what B fetches for the
 * change is exactly the file's blocks and its directory path (the root's shards down to the file), as
 * ipfs-unixfs-exporter reading that one file from A finds them, and B's ingress is their bytes.
 */

const FILES = 10_000;
const CHANGED = 'file-04321.txt';
const v1 = (cid: string): string => CID.parse(cid).toV1().toString();

describe('a change in a 10,000-file followed folder (issue 24)', () => {
  let a: TestServer;
  let b: TestServer;
  let proxy: SourceProxy;
  let folderA: string;
  let folderB: string;
  let idA: string;
  let idB: string;
  const temps: string[] = [];

  beforeAll(async () => {
    temps.push(path.dirname(await useTempTrash()));
    folderA = await makeTempDir('pinfold-follow-folder-a-');
    folderB = await makeTempDir('pinfold-follow-folder-b-');
    temps.push(folderA, folderB);
    a = await startTestServer({ publicGateway: true, network: {} });
    proxy = await startSourceProxy(() => a.url);
    b = await startTestServer({ network: { routing: [proxy.url], fetchFrom: [proxy.url] } }, {}, undefined, {
      followTiming: { pollMs: 1_000, pushWaitSeconds: 5 },
    });
    for (let i = 0; i < FILES; i += 500) {
      await Promise.all(
        Array.from({ length: Math.min(500, FILES - i) }, (_, j) =>
          writeFile(path.join(folderA, `file-${String(i + j).padStart(5, '0')}.txt`), `file ${i + j} of ${FILES}\n`),
        ),
      );
    }
  });
  afterAll(async () => {
    await b?.stop();
    await proxy?.close();
    await a?.stop();
    for (const dir of temps) await rm(dir, { recursive: true, force: true });
  });

  it('B fetches only the changed file’s blocks and its directory path, once each', { timeout: 300_000 }, async () => {
    const added = await publicSyncFolder(a, a.owner, folderA);
    idA = added.id;
    idB = (await followed(b, b.owner, { name: `${proxy.url}/ipns/${added.name}`, path: folderB })).id;
    await mirrored(b, b.owner, idB, { root: added.root, folder: folderA }, folderB, 240_000);
    // The first copy came through the proxy too.
    expect(proxy.blocks().filter((block) => block.status === 200).length).toBeGreaterThan(0);

    proxy.reset();
    const ingress = (await stats(b, b.owner)).ingress;
    await writeFile(path.join(folderA, CHANGED), 'this one changed\n');
    const root = await settledOnA(a, a.owner, idA, folderA);
    await mirrored(b, b.owner, idB, { root, folder: folderA }, folderB, 60_000);

    const wanted = await pathBlocks(keyedGet(a.url, a.owner), root, CHANGED);
    // Root, at least one shard below it, and the file.
    expect(wanted.cids.length).toBeGreaterThanOrEqual(3);
    const fetched = proxy.blocks().filter((block) => block.status === 200);
    expect(fetched.every((block) => block.format === 'raw')).toBe(true);
    expect(fetched.map((block) => v1(block.cid)).sort()).toEqual(wanted.cids.map(v1).sort());
    const bytes = fetched.reduce((sum, block) => sum + block.bytes, 0);
    expect(bytes).toBe(wanted.bytes);
    expect((await stats(b, b.owner)).ingress - ingress).toBe(wanted.bytes);
  });
});
