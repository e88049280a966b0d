/**
 * What a Cancel of an upload comes to, learned from the service rather than assumed (issue 22, item 9).
 * Aborting step 2 stops the bytes, but the service may have committed the upload already (its answer still
 * on the way): then it is stored, and the window must say so. The service decides each upload once
 * (cancelled before its commit point, or committed): the window asks it, by the step-2 address.
 *
 * Pure: the upload's work and the cancel call are passed in (the page's runner wires them; unit tests pass
 * promises they settle themselves, in either order).
 */
import type { UploadCancelOutcome } from '../../shared/api-types.js';

export type CancelVerdict =
  /** Nothing of it is stored or counted. */
  | { kind: 'cancelled' }
  /** It committed before the cancel took effect: stored (and counted) under `cid`. */
  | { kind: 'stored'; cid: string }
  /** The service could not say (it did not run that step 2, or did not answer). */
  | { kind: 'unsure'; reason: string };

export interface CancelledUpload {
  /**
   * The upload's work, already told to stop: it resolves with the CID when the step-2 answer arrived before
   * the stop took effect (the upload is stored), and rejects otherwise.
   */
  work: Promise<string>;
  /** The step-2 address, once step 1 answered; null before (then no byte was sent). */
  address: string | null;
  /** Asks the service what became of the upload of `address` (POST /api/v0/upload/cancel), cancelling it if it can. */
  cancelAddress(address: string): Promise<UploadCancelOutcome>;
}

export async function settleCancel(upload: CancelledUpload): Promise<CancelVerdict> {
  // No address yet: no step 2 was sent, and the runner gives back the address step 1 may still answer.
  if (upload.address === null) return { kind: 'cancelled' };
  try {
    return { kind: 'stored', cid: await upload.work };
  } catch {
    // No answer, or not a usable one: the service says what it did.
  }
  let outcome: UploadCancelOutcome;
  try {
    outcome = await upload.cancelAddress(upload.address);
  } catch (error) {
    return { kind: 'unsure', reason: `the service did not answer the cancel (${error instanceof Error ? error.message : String(error)})` };
  }
  if (outcome.outcome === 'cancelled') return { kind: 'cancelled' };
  const [cid] = outcome.roots;
  if (outcome.outcome === 'stored' && cid !== undefined) return { kind: 'stored', cid };
  if (outcome.outcome === 'stored') return { kind: 'unsure', reason: 'the service stored it, but did not say under which CID' };
  return { kind: 'unsure', reason: 'the service does not know this upload (was it restarted?)' };
}
