import { CID } from 'multiformats/cid';
import { describe, expect, it } from 'vitest';
import { openTarget } from '../../../../main/content/import/block-target.js';
import type { BlockBatch } from '../../../../main/store/blocks.js';
import { rawBlock } from '../../../helpers/raw-blocks.js';

/** A batch that records what happens to it: any implementation of the seam, not the pack store's class. */
function recordingBatch(log: string[]): BlockBatch {
  return {
    put: async (cid) => (log.push(`put ${cid.toString()}`), cid),
    putTrusted: async (cid) => (log.push(`putTrusted ${cid.toString()}`), cid),
    has: async () => false,
    newBytes: 0,
    commit: async () => void log.push('commit'),
    abort: () => void log.push('abort'),
  };
}

describe('openTarget (told apart by capability, not by class)', () => {
  it('a store that makes batches gets one of its own, committed or aborted by the import', async () => {
    const { cid, bytes } = rawBlock('seam');
    const log: string[] = [];
    const store = { createBatch: () => (log.push('createBatch'), recordingBatch(log)) };
    const target = openTarget(store, undefined);
    await target.write(cid, bytes);
    await target.commit();
    expect(log).toEqual(['createBatch', `putTrusted ${cid.toString()}`, 'commit']);
    openTarget(store, undefined).abort();
    expect(log.slice(-2)).toEqual(['createBatch', 'abort']);
  });

  it("a caller's batch is written to but left for the caller to commit or abort", async () => {
    const { cid, bytes } = rawBlock('seam');
    const log: string[] = [];
    const target = openTarget(recordingBatch(log), undefined);
    await target.storage.put(cid, bytes);
    await target.commit();
    target.abort();
    expect(log).toEqual([`putTrusted ${cid.toString()}`]);
  });

  it('any other blockstore gets puts, and fresh memory for chunks it may keep', async () => {
    const { cid, bytes } = rawBlock('seam');
    const puts: CID[] = [];
    const target = openTarget({ put: async (key: CID) => (puts.push(key), key) }, undefined);
    await target.write(cid, bytes);
    await target.commit();
    expect(puts).toEqual([cid]);
    const first = target.allocate(16);
    target.release(first);
    expect(target.allocate(16)).not.toBe(first);
  });
});
