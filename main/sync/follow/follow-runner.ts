import { CID } from 'multiformats/cid';
import { systemClock, unixSeconds } from '../../base/clock.js';
import type { KeyedLock } from '../../base/keyed-lock.js';
import { latestRecord, type LatestRecordDeps } from '../../names/latest-record.js';
import { tryParseIpnsName, type IpnsName } from '../../names/name-parse.js';
import type { ValidRecord } from '../../names/records.js';
import type { FetchProgress } from '../../network/dag-fetch.js';
import type { NetworkFetcher } from '../../network/network-fetcher.js';
import { waitForRecord } from '../../network/record-push.js';
import type { Transaction } from '../../store/repositories/index.js';
import type { SyncFolderRow } from '../../store/repositories/sync.js';
import type { ReadBlockstore } from '../../content/read/index.js';
import type { RunnerStatus } from '../folder-status.js';
import type { FolderRunner, SyncDomains } from '../runner.js';
import { ConflictError } from '../../base/errors.js';
import { withStallLimit } from './fetch-stall.js';
import { applyFollowedVersion, FollowApplyError, type FollowApplyProgress, type Trash } from './follow-applier.js';
import {
  afterPushAnswer,
  DEFAULT_FOLLOW_TIMING,
  DEFAULT_PUSH_TIMING,
  INITIAL_FOLLOW_STANDING,
  stepFollow,
  type FollowEffect,
  type FollowEvent,
  type FollowStanding,
  type FollowTiming,
  type PushOutcome,
  type PushTiming,
} from './follow-policy.js';
import { followSourceLabel } from './follow-target.js';

/**
 * The follow runner (issue 24): one per followed folder that is not paused, performing follow-policy.ts's
 * decisions. A cycle: the newest record of the followed name (names/latest-record.ts: the routing endpoints,
 * the fetch sources and the folder's own gateways, each record verified) → the folder's `checked_at`; a
 * record no newer than the one held (`follow_seq`) ends it. Else the version's blocks it lacks are fetched
 * (only those: the walk stops at held blocks), charged to the owner as ingress like a pin's fetch; the DAG is
 * checked whole under the GC hold (a subtree a crash left partial is fetched in full), written into the
 * folder (follow-applier.ts: the new root pinned, the old one unpinned, the version kept in the history),
 * and the sequence and local changes recorded.
 *
 * While an extra source is a Pinfold that pushes (its long-poll answers carry `X-Pinfold-Push: 1`), a newer
 * record it pushes starts a cycle at once; the periodic check covers the rest. A failed cycle shows `error`
 * with why and is tried again with a backoff. The first cycle after a start re-runs an apply a stop or a crash
 * interrupted (the folder's journal) and looks at the whole folder for local changes.
 */

export interface FollowDomains {
  store: SyncDomains['store'];
  /** Where the applier reads the version's blocks. */
  blocks: ReadBlockstore;
  /** `online()`: false when the settings say offline; no long-poll is made then either. */
  fetcher: Pick<NetworkFetcher, 'fetchDag' | 'online'>;
  /** How many blocks under `root` are missing here (the pin census); `knownComplete` spares the pin a second walk. */
  census(root: CID, signal?: AbortSignal): Promise<{ bytes: number; missing: number }>;
  knownComplete?(root: CID, bytes: number): void;
  /** What latestRecord needs of the names domain. */
  records: LatestRecordDeps;
  /** On the transaction that stores a batch of fetched blocks: the account's plan takes them as ingress (else throws). */
  chargeIngress(tx: Transaction, accountId: number, bytes: number): Promise<void>;
  movePin: SyncDomains['movePin'];
  holdGc: SyncDomains['holdGc'];
  /** One writer of a followed folder at a time: an update or a discard. */
  writeLock: KeyedLock;
  logger: SyncDomains['logger'];
  clock?: SyncDomains['clock'];
  events?: SyncDomains['events'];
  /** Where removed files go; the system's trash by default. */
  trash?: Trash;
}

/** When a followed folder looks (tests shorten every wait). */
export interface FollowRunnerTiming extends Partial<FollowTiming> {
  push?: Partial<PushTiming>;
  /** How long a pushing source may hold a long-poll (X-Pinfold-Wait), 1 to 120 s. Default 60. */
  pushWaitSeconds?: number;
  /** A version's fetch that receives no block for this long ends, and the folder shows why (fetch-stall.ts). Default 60 s. */
  fetchStallMs?: number;
}

export interface FollowRunnerInit {
  domains: FollowDomains;
  folder: SyncFolderRow;
  timing?: FollowRunnerTiming;
}

const DEFAULT_PUSH_WAIT_SECONDS = 60;
const DEFAULT_FETCH_STALL_MS = 60_000;
/** Progress reaches the event stream at most this often. */
const PROGRESS_EVENT_MS = 500;

/** The version a record points at: a plain `/ipfs/<cid>` (a followed folder is a whole DAG, never a path in one). */
function versionRoot(record: ValidRecord): string {
  const { target } = record;
  if (target.namespace !== 'ipfs' || target.rest !== '') {
    throw new FollowCycleError(`the record of ${record.name} points at ${record.value}, not at a folder's version (/ipfs/<cid>)`);
  }
  return target.cid.toV1().toString();
}

/** A version fetched as far as held blocks; `whole()` makes sure of the rest. */
interface FetchedVersion {
  whole(): Promise<void>;
}

/** A cycle that could not finish for a reason the folder shows as it is. */
class FollowCycleError extends Error {
  override readonly name = 'FollowCycleError';
}

/** Where a followed name's records are asked, in words. */
function sourcesText(row: Pick<SyncFolderRow, 'followSources'>): string {
  return `the routing endpoints, the fetch sources${row.followSources.map((source) => `, ${source}`).join('')}`;
}

/** The long-poll wait of a source's first ask (X-Pinfold-Wait's least): enough to learn whether it pushes. */
const PROBE_WAIT_SECONDS = 1;

const heldSequence = (row: Pick<SyncFolderRow, 'followSeq'>): bigint => (row.followSeq === '' ? -1n : BigInt(row.followSeq));

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function isAbort(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error instanceof Error && error.name === 'AbortError');
}

export function startFollowRunner(init: FollowRunnerInit): FolderRunner {
  const { domains } = init;
  const { store, logger } = domains;
  const clock = domains.clock ?? systemClock;
  const timing: FollowTiming = { ...DEFAULT_FOLLOW_TIMING, ...stripUndefined(init.timing ?? {}) };
  const pushTiming: PushTiming = { ...DEFAULT_PUSH_TIMING, ...stripUndefined(init.timing?.push ?? {}) };
  const pushWaitSeconds = init.timing?.pushWaitSeconds ?? DEFAULT_PUSH_WAIT_SECONDS;
  const fetchStallMs = init.timing?.fetchStallMs ?? DEFAULT_FETCH_STALL_MS;
  const folder = init.folder;
  const folderId = folder.id;
  const pinName = `follow ${folder.path}`.slice(0, 255);
  const stopping = new AbortController();
  const name: IpnsName | undefined = tryParseIpnsName(folder.followName);

  let standing: FollowStanding = INITIAL_FOLLOW_STANDING;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  /** The first cycle after a start looks at the whole folder; so does a rescan. */
  let scanNext = true;
  /** Records pushed to us, unverified: they compete with the network's at the next cycle. */
  let pushed: Uint8Array[] = [];
  /** The sequence held, kept for the long-polls (-1 before the first copy). */
  let held = heldSequence(folder);
  const cycleWaiters = new Set<() => void>();
  let resolveFirst!: () => void;
  let rejectFirst!: (error: Error) => void;
  const firstSync = new Promise<void>((resolve, reject) => {
    resolveFirst = resolve;
    rejectFirst = reject;
  });
  // The service answers a follow at once: nobody need wait for the first copy.
  firstSync.catch(() => undefined);

  const status: RunnerStatus = {
    state: folder.rootCid === '' ? 'syncing' : folder.state === 'error' ? 'error' : 'idle',
    pending: 0,
    filesDone: 0,
    filesPending: 0,
    bytesDone: 0,
    bytesPending: 0,
    currentFile: '',
    error: folder.state === 'error' ? folder.error : '',
    unreadable: [],
    errors: [],
  };
  let lastEvent = 0;
  /** The state last shown, being stored: awaited at stop, so a pause's own state is written after it. */
  let stateWrite: Promise<void> = Promise.resolve();
  const notify = (): void => {
    lastEvent = Date.now();
    domains.events?.syncChanged(folder.accountId, folderId);
  };
  const progressed = (): void => {
    if (Date.now() - lastEvent >= PROGRESS_EVENT_MS) notify();
  };
  const setProgress = (filesDone: number, bytesDone: number, currentFile: string): void => {
    status.state = 'syncing';
    status.filesDone = filesDone;
    status.bytesDone = bytesDone;
    status.currentFile = currentFile;
    progressed();
  };
  const clearProgress = (): void => {
    status.filesDone = 0;
    status.bytesDone = 0;
    status.filesPending = 0;
    status.pending = 0;
    status.currentFile = '';
  };

  const perform = (effects: readonly FollowEffect[]): void => {
    for (const effect of effects) {
      switch (effect.type) {
        case 'run-cycle':
          current = runCycle();
          break;
        case 'schedule-check':
          if (timer) clearTimeout(timer);
          timer = setTimeout(() => dispatch({ type: 'check-due' }), effect.ms);
          timer.unref();
          break;
        case 'cancel-check':
          if (timer) clearTimeout(timer);
          timer = undefined;
          break;
        case 'show':
          show(effect.state, effect.error);
          break;
      }
    }
  };
  const dispatch = (event: FollowEvent): void => {
    const step = stepFollow(standing, event, timing);
    standing = step.standing;
    perform(step.effects);
  };

  const show = (state: 'idle' | 'error', error: string): void => {
    clearProgress();
    status.state = state;
    status.error = error;
    if (error !== '') {
      status.errors.push({ at: unixSeconds(clock), path: '', message: error });
      if (status.errors.length > 20) status.errors.shift();
    }
    stateWrite = stateWrite
      .then(() => store.sync.setSyncFolderState(folderId, state, error))
      .then(notify, (problem: unknown) => logger.warn('a followed folder state was not stored', { folder: folderId, error: problem }));
  };

  const runCycle = async (): Promise<void> => {
    const scanAll = scanNext;
    scanNext = false;
    try {
      await cycle(scanAll);
      if (stopping.signal.aborted) return;
      resolveFirst();
      dispatch({ type: 'cycle-done' });
    } catch (error) {
      if (isAbort(error, stopping.signal)) return;
      // The look at the whole folder is owed still; and after a folder that could not be written (gone, full,
      // unwritable), what is on it now is looked at whole: it may have been replaced or emptied meanwhile.
      if (scanAll || error instanceof FollowApplyError) scanNext = true;
      logger.warn('a followed folder could not be updated', { folder: folderId, error: messageOf(error) });
      dispatch({ type: 'cycle-failed', message: messageOf(error) });
    } finally {
      for (const wake of [...cycleWaiters]) wake();
    }
  };

  const cycle = async (scanAll: boolean): Promise<void> => {
    const signal = stopping.signal;
    const row = await store.sync.getSyncFolder(folderId);
    // Removed meanwhile: its stop is on the way.
    if (!row) return;
    if (name === undefined) throw new FollowCycleError(`the followed name ${row.followName} is not an IPNS name`);
    const candidates = pushed;
    pushed = [];
    const found = await latestRecord(domains.records, name, { sources: row.followSources, candidates, signal });
    await store.sync.setFollowChecked(folderId, unixSeconds(clock));
    notify();
    const journal = await store.sync.getSyncJournal(folderId);
    const record = found.record;
    if (record === undefined && row.rootCid === '' && journal === undefined) {
      throw new FollowCycleError(
        found.networkAnswers === 0 ? unreachable(row, name) : `no valid record of /ipns/${name.name} was found (every record answered was refused)`,
      );
    }
    const newer = record !== undefined && record.sequence > heldSequence(row) ? record : undefined;
    const target = newer !== undefined ? versionRoot(newer) : journal !== undefined ? journal.newRoot : row.rootCid;
    if (target === '') return;
    if (target === row.rootCid && journal === undefined) {
      // The same version under a newer record (a republish): only the sequence moves.
      if (newer !== undefined) await keepSequence(newer.sequence);
      if (scanAll) await writeFolder(row, target, true);
    }
    if (target !== row.rootCid || journal !== undefined) {
      const fetched = await fetchVersion(row, CID.parse(target), signal);
      await writeFolder(row, target, scanAll, fetched);
      if (newer !== undefined && target === versionRoot(newer)) await keepSequence(newer.sequence);
    }
    if (found.networkAnswers === 0 && candidates.length === 0 && (await store.names.nameByName(name.name)) === null) {
      // The version held stays; the folder says its source cannot be reached (and the check is retried).
      throw new FollowCycleError(unreachable(row, name));
    }
  };

  const unreachable = (row: SyncFolderRow, followed: IpnsName): string =>
    domains.fetcher.online()
      ? `no source answered with a record of /ipns/${followed.name}: ${sourcesText(row)} are offline or hold none`
      : `this Pinfold is offline (its network settings): /ipns/${followed.name} is followed again once it is online`;

  const keepSequence = async (sequence: bigint): Promise<void> => {
    await store.sync.setFollowSequence(folderId, sequence.toString());
    held = sequence;
  };

  /**
   * The blocks of `root` this machine lacks, from the network (only those while the held ones are whole);
   * `whole()`, under the GC hold, checks the DAG complete and fetches it in full if a held subtree has a hole.
   * A fetch that receives no block for `fetchStallMs` ends with why (fetch-stall.ts): it never gives up by itself.
   */
  const fetchVersion = async (row: SyncFolderRow, root: CID, signal: AbortSignal): Promise<FetchedVersion> => {
    const fetch = (stopAtHeld: boolean): Promise<unknown> =>
      withStallLimit(signal, fetchStallMs, `the version ${root.toString()}`, (limited, progressed) =>
        domains.fetcher.fetchDag(root, {
          signal: limited,
          origins: row.followSources,
          stopAtHeld,
          onCommit: (tx, stored) => domains.chargeIngress(tx, row.accountId, stored.bytes),
          onProgress: (progress: FetchProgress) => {
            progressed();
            // While fetching, no file is written yet: the bytes received are the progress.
            setProgress(0, progress.bytes, '');
          },
        }),
      );
    setProgress(0, 0, '');
    await fetch(true);
    return {
      async whole() {
        let census = await domains.census(root, signal);
        if (census.missing > 0) {
          // A held subtree with a hole (a crash mid-fetch, or GC before the hold): the whole walk this time.
          logger.info('a followed version had holes under held blocks; fetched in full', { folder: folderId, missing: census.missing });
          await fetch(false);
          census = await domains.census(root, signal);
        }
        if (census.missing > 0)
          throw new FollowCycleError(`the version ${root.toString()} is not whole here (${census.missing} blocks missing); fetched again at the next try`);
        domains.knownComplete?.(root, census.bytes);
      },
    };
  };

  /** Under the GC hold (the blocks stay until pinned) and the folder's write lock: checked whole, written, pinned. */
  const writeFolder = async (row: SyncFolderRow, root: string, scanAll: boolean, fetched?: FetchedVersion): Promise<void> => {
    await domains.holdGc((hold) =>
      domains.writeLock.run(folderId, async () => {
        await fetched?.whole();
        const fresh = (await store.sync.getSyncFolder(folderId)) ?? row;
        const result = await applyFollowedVersion({
          folderId,
          store,
          blocks: domains.blocks,
          root,
          source: followSourceLabel({ name: row.followName, sources: row.followSources }),
          movePin: (newRoot, oldRoot) => domains.movePin(row.accountId, newRoot, oldRoot, pinName, hold),
          localChanges: fresh.localChanges.map((change) => change.path),
          scanAll,
          ...(domains.trash ? { trash: domains.trash } : {}),
          clock,
          signal: stopping.signal,
          onProgress: (progress: FollowApplyProgress) => {
            status.filesPending = progress.filesTotal - progress.filesDone;
            // The files still to write are the folder's pending ones, as a synced folder's still to read are.
            status.pending = status.filesPending;
            setProgress(progress.filesDone, status.bytesDone, progress.currentFile);
          },
        });
        await store.sync.setFollowLocalChanges(folderId, result.localChanges);
      }),
    );
  };

  /** One extra source's long-poll, in a loop while the runner runs. */
  const pushLoop = async (source: string, wantName: string): Promise<void> => {
    let failures = 0;
    let live = false;
    // The first ask, and the first after a failure, waits a second only: a source that pushes says so in its
    // answer (X-Pinfold-Push), and until one answer has said it the folder polls every `pollMs`. With the full
    // wait, a name that does not change would keep the folder polling for that whole wait.
    let waitSeconds = PROBE_WAIT_SECONDS;
    const signal = stopping.signal;
    while (!signal.aborted) {
      if (!domains.fetcher.online()) {
        // Offline: no request leaves; looked at again as often as the periodic check.
        await delay(Math.min(pushTiming.probeMs, timing.pollMs), signal);
        continue;
      }
      const asked = held < 0n ? 0n : held;
      const answer = await waitForRecord(source, wantName, asked, waitSeconds, signal).catch((error: unknown) => {
        if (signal.aborted) return undefined;
        throw error;
      });
      if (answer === undefined) return;
      let outcome: PushOutcome = answer.kind;
      if (answer.kind === 'record' && answer.push) {
        // Pushed: checked at once, with the pushed record among the candidates.
        pushed.push(answer.bytes);
        const settled = nextCycleEnd();
        dispatch({ type: 'check-asked' });
        await settled;
        // The cycle kept nothing newer (a record refused, a fetch that failed): not asked again in a loop.
        if (held <= asked) outcome = 'none';
      }
      failures = outcome === 'none' ? failures + 1 : 0;
      waitSeconds = outcome === 'none' ? PROBE_WAIT_SECONDS : pushWaitSeconds;
      const next = afterPushAnswer(outcome, answer.push, failures, pushTiming);
      if (next.live !== live) {
        live = next.live;
        dispatch({ type: 'push-live', live });
      }
      if (next.waitMs > 0) await delay(next.waitMs, signal);
    }
  };
  const nextCycleEnd = (): Promise<void> =>
    new Promise<void>((resolve) => {
      const wake = (): void => {
        cycleWaiters.delete(wake);
        stopping.signal.removeEventListener('abort', wake);
        resolve();
      };
      cycleWaiters.add(wake);
      stopping.signal.addEventListener('abort', wake, { once: true });
    });

  dispatch({ type: 'started' });
  const pushes =
    name === undefined
      ? []
      : folder.followSources.map((source) =>
          pushLoop(source, name.name).catch((error: unknown) =>
            logger.warn('a followed source push stopped', { folder: folderId, source, error: messageOf(error) }),
          ),
        );

  return {
    folderId,
    firstSync,
    status: () => ({ ...status, unreadable: [], errors: [...status.errors] }),
    rescan() {
      scanNext = true;
      dispatch({ type: 'check-asked' });
    },
    retry() {
      dispatch({ type: 'check-asked' });
    },
    async publishNow() {
      throw new ConflictError(`id: sync folder ${folderId} follows ${folder.followName}: a followed folder is never published`);
    },
    async stop() {
      dispatch({ type: 'stop-asked' });
      stopping.abort(new Error('the followed folder stopped'));
      rejectFirst(new Error('the followed folder stopped before its first copy'));
      await current;
      await Promise.all(pushes);
      await stateWrite;
    },
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(handle);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const handle = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
