import { describe, expect, it } from 'vitest';
import type { ReadBlockstore } from '../../../main/content/read/index.js';
import { startHistoryBytesWorker } from '../../../main/sync/history-bytes.js';
import type { Repositories } from '../../../main/store/repositories/index.js';

/** A sync repository with no version lacking its figure, that counts how often it is asked. */
function countingStore(): { store: Pick<Repositories, 'sync'>; asked: string[] } {
  const asked: string[] = [];
  const sync = {
    pendingHistoryBytes: async (folderId: string) => {
      asked.push(folderId);
      return [];
    },
    setHistoryBytes: async () => false,
  };
  return { store: { sync: sync as unknown as Repositories['sync'] }, asked };
}

const noBlocks = {} as ReadBlockstore;

describe('the history bytes worker', () => {
  it('serves a burst of requests (a progress notice per file) with one pass per folder', async () => {
    const { store, asked } = countingStore();
    const worker = startHistoryBytesWorker({ store, blocks: noBlocks, onRecorded: () => {}, onError: () => {}, gatherMs: 20 });
    for (let i = 0; i < 500; i++) worker.request(1, i % 2 === 0 ? 'a' : 'b');
    await worker.idle();
    expect(asked.sort()).toEqual(['a', 'b']);
    // A request after the pass gets a pass of its own.
    worker.request(1, 'a');
    await worker.idle();
    expect(asked).toEqual(['a', 'b', 'a']);
    await worker.close();
  });

  it('closes at once while requests gather, and makes no pass for them', async () => {
    const { store, asked } = countingStore();
    const worker = startHistoryBytesWorker({ store, blocks: noBlocks, onRecorded: () => {}, onError: () => {}, gatherMs: 60_000 });
    worker.request(1, 'a');
    await worker.close();
    expect(asked).toEqual([]);
    worker.request(1, 'a');
    await worker.idle();
    expect(asked).toEqual([]);
  });
});
