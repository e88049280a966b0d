import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSourceProxy, type RecordAsk, type SourceProxy } from '../helpers/source-proxy.js';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/test-server.js';
import { followed, mirrored, publicSyncFolder, useTempTrash, write } from './follow-helpers.js';
import { until } from '../helpers/until.js';

/**
 * Issue 24: a followed folder whose source pushes (a Pinfold gateway's long-poll) learns so at its first ask,
 * a one-second wait, and from then on makes no periodic check: the push brings each new record. Before, the
 * first ask waited the whole long-poll (a minute by default) on a name that did not change, and the folder
 * kept checking every `pollMs` meanwhile (the ten idle folders of `bench follow` each checked once a minute).
 * B follows A through a proxy that sees every record request B makes.
 */

const POLL_MS = 400;
const WAIT_SECONDS = 3;

const longPolls = (asks: readonly RecordAsk[]): RecordAsk[] => asks.filter((ask) => ask.wait !== undefined);

describe('a followed folder and a source that pushes (issue 24)', () => {
  let a: TestServer;
  let b: TestServer;
  let proxy: SourceProxy;
  const temps: string[] = [];

  beforeAll(async () => {
    temps.push(path.dirname(await useTempTrash()));
    a = await startTestServer({ publicGateway: true, network: {} });
    proxy = await startSourceProxy(() => a.url);
    b = await startTestServer({ network: { routing: [proxy.url], fetchFrom: [proxy.url] } }, {}, undefined, {
      followTiming: { pollMs: POLL_MS, pushWaitSeconds: WAIT_SECONDS },
    });
  });
  afterAll(async () => {
    await b?.stop();
    await proxy?.close();
    await a?.stop();
    for (const dir of temps) await rm(dir, { recursive: true, force: true });
  });

  it('asks first with a one-second wait, then waits in full, and checks no more while the source pushes', { timeout: 60_000 }, async () => {
    const folderA = await makeTempDir('pinfold-follow-probe-a-');
    const folderB = await makeTempDir('pinfold-follow-probe-b-');
    temps.push(folderA, folderB);
    await write(folderA, 'notes.txt', 'unchanging\n');
    const added = await publicSyncFolder(a, a.owner, folderA);
    const row = await followed(b, b.owner, { name: `${proxy.url}/ipns/${added.name}`, path: folderB });
    await mirrored(b, b.owner, row.id, { root: added.root, folder: folderA }, folderB);

    // The name does not change: the probe ends in a 304 that says A pushes, and the full wait follows.
    const [probe, second] = await until('a second long-poll', () => {
      const polls = longPolls(proxy.recordAsks());
      return polls.length >= 2 ? polls : undefined;
    });
    expect(probe?.wait).toBe('1');
    expect(second?.wait).toBe(String(WAIT_SECONDS));

    // From the second long-poll to the third (its wait ended unanswered: several `pollMs` later), B asks
    // for the record no other way: no periodic check of the gateway or of the routing endpoint.
    const from = proxy.recordAsks().indexOf(second as RecordAsk);
    const window = await until(
      'a third long-poll',
      () => {
        const asks = proxy.recordAsks().slice(from + 1);
        const third = asks.findIndex((ask) => ask.wait !== undefined);
        return third >= 0 ? asks.slice(0, third) : undefined;
      },
      WAIT_SECONDS * 1000 + 10_000,
    );
    expect(window).toEqual([]);
  });
});
