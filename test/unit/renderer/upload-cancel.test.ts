/**
 * renderer/lib/upload-cancel.ts: what a Cancel comes to is what the service did (issue 22, item 9), in either
 * order of the step-2 answer and the cancel: the answer arrived first (stored), else the service's answer to
 * the cancel of the address. The work and the cancel call are promises this test settles itself.
 */
import { describe, expect, it } from 'vitest';
import { settleCancel } from '../../../renderer/lib/upload-cancel.js';
import type { UploadCancelOutcome } from '../../../shared/api-types.js';
import { deferred } from '../../helpers/deferred.js';

const ADDRESS = 'http://127.0.0.1:5080/ipfs/?sargs=abc&ssig=def';
const aborted = () => Promise.reject(new DOMException('The upload was cancelled.', 'AbortError'));

/** A cancel call that records what it was asked and answers `outcome` (or fails). */
function service(answer: UploadCancelOutcome | Error) {
  const asked: string[] = [];
  return {
    asked,
    cancelAddress: async (address: string) => {
      asked.push(address);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
}

describe('settleCancel', () => {
  it('before step 1 answered: cancelled, without asking (the runner gives the address back when it comes)', async () => {
    const asked = service({ outcome: 'stored', roots: ['bafy-x'] });
    const never = new Promise<string>(() => undefined);
    expect(await settleCancel({ work: never, address: null, ...asked })).toEqual({ kind: 'cancelled' });
    expect(asked.asked).toEqual([]);
  });

  it('the step-2 answer arrived before the abort took effect: stored, as it answered', async () => {
    const asked = service({ outcome: 'cancelled', roots: [] });
    expect(await settleCancel({ work: Promise.resolve('bafy-answered'), address: ADDRESS, ...asked })).toEqual({ kind: 'stored', cid: 'bafy-answered' });
    expect(asked.asked).toEqual([]);
  });

  it('aborted before the answer: the service says, cancelled (nothing kept) or stored (it committed first)', async () => {
    const cancelled = service({ outcome: 'cancelled', roots: [] });
    expect(await settleCancel({ work: aborted(), address: ADDRESS, ...cancelled })).toEqual({ kind: 'cancelled' });
    expect(cancelled.asked).toEqual([ADDRESS]);
    const stored = service({ outcome: 'stored', roots: ['bafy-root', 'bafy-other'] });
    expect(await settleCancel({ work: aborted(), address: ADDRESS, ...stored })).toEqual({ kind: 'stored', cid: 'bafy-root' });
  });

  it('the answer and the abort race: whichever settles the work, the verdict follows what the service did', async () => {
    // The work settles only after the cancel was asked for: its answer still decides, not the abort.
    const work = deferred<string>();
    const asked = service({ outcome: 'cancelled', roots: [] });
    const verdict = settleCancel({ work: work.promise, address: ADDRESS, ...asked });
    work.resolve('bafy-late-answer');
    expect(await verdict).toEqual({ kind: 'stored', cid: 'bafy-late-answer' });
  });

  it('when the service cannot say, the window does not claim either', async () => {
    expect(await settleCancel({ work: aborted(), address: ADDRESS, ...service({ outcome: 'unknown', roots: [] }) })).toMatchObject({
      kind: 'unsure',
      reason: expect.stringMatching(/does not know this upload/),
    });
    expect(await settleCancel({ work: aborted(), address: ADDRESS, ...service(new Error('Cannot reach the Pinfold service.')) })).toMatchObject({
      kind: 'unsure',
      reason: expect.stringMatching(/did not answer the cancel \(Cannot reach/),
    });
    expect(await settleCancel({ work: aborted(), address: ADDRESS, ...service({ outcome: 'stored', roots: [] }) })).toMatchObject({ kind: 'unsure' });
  });
});
