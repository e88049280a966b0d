import type { IncomingHttpHeaders } from 'node:http';
import { BadInputError } from '../../base/errors.js';
import { linkedSignal } from '../../base/linked-signal.js';
import type { GatewayDeps, ResolvedName } from './types.js';

/**
 * The long-poll of a name's record that a Pinfold gateway serves for the names it holds (issue 24: a followed
 * folder learns of a new version at once). A client that already has the record of sequence N asks
 *
 *     GET /ipns/<name>?format=ipns-record
 *     X-Pinfold-Wait: <seconds>        (1 to 120)
 *     X-Pinfold-Seq: <N>
 *
 * and the gateway answers at once with the record (200) when the one it holds is newer than N, else holds the
 * request until the name's record changes here (a publish) and then answers it, or answers 304 Not Modified
 * when the wait ends first. Every record answer of a name held here carries `X-Pinfold-Push: 1`, so a client
 * knows it may wait this way; any other gateway ignores the two headers and answers at once, without the
 * marker, and the client polls it instead.
 */

export const WAIT_HEADER = 'x-pinfold-wait';
export const SEQUENCE_HEADER = 'x-pinfold-seq';
export const PUSH_HEADER = 'x-pinfold-push';
export const MAX_WAIT_SECONDS = 120;

export interface RecordWait {
  ms: number;
  /** The sequence the client holds: a record with a higher one is answered at once. */
  sequence: bigint;
}

/** The request's wait, or undefined when it asks for none; a malformed one is a 400 naming the header. */
export function parseRecordWait(headers: IncomingHttpHeaders): RecordWait | undefined {
  const wait = headers[WAIT_HEADER];
  if (wait === undefined) return undefined;
  if (typeof wait !== 'string' || !/^\d{1,4}$/.test(wait.trim()) || Number(wait) < 1 || Number(wait) > MAX_WAIT_SECONDS) {
    throw new BadInputError(`X-Pinfold-Wait: seconds from 1 to ${MAX_WAIT_SECONDS} are expected`);
  }
  const sequence = headers[SEQUENCE_HEADER];
  if (typeof sequence !== 'string' || !/^\d{1,20}$/.test(sequence.trim()) || BigInt(sequence.trim()) >= 2n ** 64n) {
    throw new BadInputError('X-Pinfold-Seq: the sequence number of the record held (0 to 2^64-1) is expected with X-Pinfold-Wait');
  }
  return { ms: Number(wait) * 1000, sequence: BigInt(sequence.trim()) };
}

/**
 * Waits, as {@link parseRecordWait}'s wait asks, for a record of `name` newer than the client's; answers it,
 * or undefined when the wait ended (or the client left) first. `first` is the name's resolution now.
 */
export async function awaitNewerRecord(
  deps: Pick<GatewayDeps, 'resolveName' | 'nameChanges'>,
  name: string,
  first: ResolvedName,
  wait: RecordWait,
  signal: () => AbortSignal,
): Promise<ResolvedName | undefined> {
  const { nameChanges } = deps;
  if (nameChanges === undefined) return first;
  // Not AbortSignal.any with AbortSignal.timeout: nothing but its own listener holds this wait (base/linked-signal.ts).
  const linked = linkedSignal([signal()], wait.ms);
  const ends = linked.signal;
  let current = first;
  try {
    for (;;) {
      // Listening before the check: a publish between the two still wakes the wait.
      const change = nameChanges(name, ends);
      if ((current.sequence ?? 0n) > wait.sequence) return current;
      await change;
      if (ends.aborted) return undefined;
      const answer = deps.resolveName(name, signal);
      current = answer instanceof Promise ? await answer : answer;
    }
  } finally {
    linked.dispose();
  }
}
