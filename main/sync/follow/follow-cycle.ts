import { CID } from 'multiformats/cid';
import { unixSeconds } from '../../base/clock.js';
import { latestRecord } from '../../names/latest-record.js';
import type { IpnsName } from '../../names/name-parse.js';
import type { SyncFolderRow } from '../../store/repositories/sync.js';
import { FollowCycleError, planFollowCycle, type CyclePlan } from './follow-cycle-plan.js';
import type { FollowInbox } from './follow-inbox.js';
import { fetchVersion, writeFolder, type VersionDeps } from './follow-version.js';

/** What a cycle needs besides fetching and writing a version: the followed name and what the push loops share. */
export interface CycleDeps extends VersionDeps {
  /** The followed name; undefined when the folder's is not an IPNS name (every cycle fails saying so). */
  name: IpnsName | undefined;
  inbox: FollowInbox;
}

export const heldSequence = (row: Pick<SyncFolderRow, 'followSeq'>): bigint => (row.followSeq === '' ? -1n : BigInt(row.followSeq));

/** Where a followed name's records are asked, in words. */
function sourcesText(row: Pick<SyncFolderRow, 'followSources'>): string {
  return `the routing endpoints, the fetch sources${row.followSources.map((source) => `, ${source}`).join('')}`;
}

function unreachable(deps: CycleDeps, row: SyncFolderRow, followed: IpnsName): string {
  return deps.domains.fetcher.online()
    ? `no source answered with a record of /ipns/${followed.name}: ${sourcesText(row)} are offline or hold none`
    : `this Pinfold is offline (its network settings): /ipns/${followed.name} is followed again once it is online`;
}

/**
 * One cycle: the newest record of the followed name (names/latest-record.ts, with the records pushed since
 * the last cycle) → the folder's `checked_at`; then what follow-cycle-plan.ts decides: a newer version fetched
 * and written, an interrupted apply finished, or the sequence moved. A name no source answered for fails the
 * cycle after it (the version held stays), unless an account here holds it.
 */
export async function runFollowCycle(deps: CycleDeps, scanAll: boolean): Promise<void> {
  const { domains, folderId, name } = deps;
  const { store } = domains;
  const row = await store.sync.getSyncFolder(folderId);
  // Removed meanwhile: its stop is on the way.
  if (!row) return;
  if (name === undefined) throw new FollowCycleError(`the followed name ${row.followName} is not an IPNS name`);
  const candidates = deps.inbox.take();
  const found = await latestRecord(domains.records, name, { sources: row.followSources, candidates, signal: deps.signal });
  await store.sync.setFollowChecked(folderId, unixSeconds(deps.clock));
  deps.board.notify();
  const journal = await store.sync.getSyncJournal(folderId);
  const { record, networkAnswers } = found;
  const plan = planFollowCycle({ rootCid: row.rootCid, heldSequence: heldSequence(row), journalRoot: journal?.newRoot, record, networkAnswers });
  if (plan.kind === 'refuse') {
    throw new FollowCycleError(
      plan.noAnswer ? unreachable(deps, row, name) : `no valid record of /ipns/${name.name} was found (every record answered was refused)`,
    );
  }
  if (plan.kind === 'nothing') return;
  await perform(deps, row, plan, scanAll);
  if (networkAnswers === 0 && candidates.length === 0 && (await store.names.nameByName(name.name)) === null) {
    // The version held stays; the folder says its source cannot be reached (and the check is retried).
    throw new FollowCycleError(unreachable(deps, row, name));
  }
}

async function perform(deps: CycleDeps, row: SyncFolderRow, plan: CyclePlan & { kind: 'same' | 'write' }, scanAll: boolean): Promise<void> {
  if (plan.kind === 'same') {
    if (plan.keepSequence !== undefined) await keepSequence(deps, plan.keepSequence);
    if (scanAll) await writeFolder(deps, row, row.rootCid, true);
    return;
  }
  const fetched = await fetchVersion(deps, row, CID.parse(plan.root));
  await writeFolder(deps, row, plan.root, scanAll, fetched);
  if (plan.keepSequence !== undefined) await keepSequence(deps, plan.keepSequence);
}

async function keepSequence(deps: CycleDeps, sequence: bigint): Promise<void> {
  await deps.domains.store.sync.setFollowSequence(deps.folderId, sequence.toString());
  deps.inbox.held = sequence;
}
