import type { ValidRecord } from '../../names/records.js';

/**
 * What one cycle of a followed folder does with the newest record found (follow-cycle.ts performs it), as a
 * pure function of what the folder holds: the version (`rootCid`), the sequence kept, and an apply that a
 * stop or a crash interrupted (the journal's new root).
 */

/** A cycle that could not finish for a reason the folder shows as it is. */
export class FollowCycleError extends Error {
  override readonly name = 'FollowCycleError';
}

export interface CycleFacts {
  /** The version the folder holds ('' before the first copy). */
  rootCid: string;
  /** The sequence of the record the folder holds (-1 before the first copy). */
  heldSequence: bigint;
  /** The root an interrupted apply was writing; undefined when none was. */
  journalRoot: string | undefined;
  /** The newest valid record found; undefined when none. */
  record: ValidRecord | undefined;
  /** How many records the network answered (valid or not). */
  networkAnswers: number;
}

export type CyclePlan =
  /** Nothing to copy and nothing held: the cycle fails, saying whether no source answered or all were refused. */
  | { kind: 'refuse'; noAnswer: boolean }
  /** Nothing to do at all (nothing held, nothing newer). */
  | { kind: 'nothing' }
  /** The version held stays (a newer record of it moves only the sequence); a rescan looks at the folder. */
  | { kind: 'same'; keepSequence: bigint | undefined }
  /** The version `root` is fetched and written; then the sequence moves, when a newer record named it. */
  | { kind: 'write'; root: string; keepSequence: bigint | undefined };

/** The version a record points at: a plain `/ipfs/<cid>` (a followed folder is a whole DAG, never a path in one). */
export function versionRoot(record: ValidRecord): string {
  const { target } = record;
  if (target.namespace !== 'ipfs' || target.rest !== '') {
    throw new FollowCycleError(`the record of ${record.name} points at ${record.value}, not at a folder's version (/ipfs/<cid>)`);
  }
  return target.cid.toV1().toString();
}

export function planFollowCycle(facts: CycleFacts): CyclePlan {
  const { record, rootCid, journalRoot } = facts;
  if (record === undefined && rootCid === '' && journalRoot === undefined) return { kind: 'refuse', noAnswer: facts.networkAnswers === 0 };
  const newer = record !== undefined && record.sequence > facts.heldSequence ? record : undefined;
  // A newer record wins over an interrupted apply, which wins over the version held.
  const target = newer !== undefined ? versionRoot(newer) : (journalRoot ?? rootCid);
  if (target === '') return { kind: 'nothing' };
  // The same version under a newer record (a republish): only the sequence moves.
  if (target === rootCid && journalRoot === undefined) return { kind: 'same', keepSequence: newer?.sequence };
  return { kind: 'write', root: target, keepSequence: newer?.sequence };
}
