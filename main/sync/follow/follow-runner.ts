import { systemClock } from '../../base/clock.js';
import { tryParseIpnsName } from '../../names/name-parse.js';
import type { SyncFolderRow } from '../../store/repositories/sync.js';
import type { FolderRunner } from '../runner.js';
import { ConflictError } from '../../base/errors.js';
import { CycleEnds } from './cycle-ends.js';
import { FollowApplyError } from './follow-applier.js';
import type { FollowDomains } from './follow-domains.js';
import { heldSequence, runFollowCycle, type CycleDeps } from './follow-cycle.js';
import { FollowInbox } from './follow-inbox.js';
import {
  DEFAULT_FOLLOW_TIMING,
  DEFAULT_PUSH_TIMING,
  INITIAL_FOLLOW_STANDING,
  stepFollow,
  type FollowEffect,
  type FollowEvent,
  type FollowStanding,
  type FollowTiming,
  type PushTiming,
} from './follow-policy.js';
import { FollowStatusBoard } from './follow-status.js';
import { runPushLoop, type PushLoopDeps } from './push-loop.js';

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

export type { FollowDomains } from './follow-domains.js';

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

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function isAbort(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error instanceof Error && error.name === 'AbortError');
}

export function startFollowRunner(init: FollowRunnerInit): FolderRunner {
  const runner = new FollowRunner(init);
  const { folder } = init;
  return {
    folderId: folder.id,
    firstSync: runner.firstSync,
    status: () => runner.board.snapshot(),
    rescan: () => runner.checkNow(true),
    retry: () => runner.checkNow(false),
    async publishNow() {
      throw new ConflictError(`id: sync folder ${folder.id} follows ${folder.followName}: a followed folder is never published`);
    },
    stop: () => runner.stop(),
  };
}

/** The runner's state and effects: follow-policy.ts decides when a cycle runs, follow-cycle.ts runs it. */
class FollowRunner {
  readonly board: FollowStatusBoard;
  readonly firstSync: Promise<void>;
  private readonly timing: FollowTiming;
  private readonly stopping = new AbortController();
  private readonly cycleDeps: CycleDeps;
  private readonly cycleEnds = new CycleEnds();
  private standing: FollowStanding = INITIAL_FOLLOW_STANDING;
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> = Promise.resolve();
  /** The first cycle after a start looks at the whole folder; so does a rescan. */
  private scanNext = true;
  private firstCopied!: () => void;
  private firstFailed!: (error: Error) => void;
  private readonly pushes: Promise<void>[];

  constructor(init: FollowRunnerInit) {
    const { domains, folder } = init;
    const clock = domains.clock ?? systemClock;
    this.timing = { ...DEFAULT_FOLLOW_TIMING, ...stripUndefined(init.timing ?? {}) };
    this.board = new FollowStatusBoard(folder, domains, clock);
    this.firstSync = new Promise<void>((resolve, reject) => {
      this.firstCopied = resolve;
      this.firstFailed = reject;
    });
    // The service answers a follow at once: nobody need wait for the first copy.
    this.firstSync.catch(() => undefined);
    this.cycleDeps = {
      domains,
      folderId: folder.id,
      pinName: `follow ${folder.path}`.slice(0, 255),
      board: this.board,
      clock,
      fetchStallMs: init.timing?.fetchStallMs ?? DEFAULT_FETCH_STALL_MS,
      signal: this.stopping.signal,
      name: tryParseIpnsName(folder.followName),
      inbox: new FollowInbox(heldSequence(folder)),
    };
    this.dispatch({ type: 'started' });
    this.pushes = this.startPushLoops(init);
  }

  /** A check now (the user's retry, or a rescan that also looks at the whole folder). */
  checkNow(scanAll: boolean): void {
    if (scanAll) this.scanNext = true;
    this.dispatch({ type: 'check-asked' });
  }

  async stop(): Promise<void> {
    this.dispatch({ type: 'stop-asked' });
    this.stopping.abort(new Error('the followed folder stopped'));
    this.firstFailed(new Error('the followed folder stopped before its first copy'));
    await this.current;
    await Promise.all(this.pushes);
    await this.board.settled();
  }

  private dispatch(event: FollowEvent): void {
    const step = stepFollow(this.standing, event, this.timing);
    this.standing = step.standing;
    for (const effect of step.effects) this.perform(effect);
  }

  private perform(effect: FollowEffect): void {
    switch (effect.type) {
      case 'run-cycle':
        this.current = this.runCycle();
        break;
      case 'schedule-check':
        if (this.timer) clearTimeout(this.timer);
        this.timer = setTimeout(() => this.dispatch({ type: 'check-due' }), effect.ms);
        this.timer.unref();
        break;
      case 'cancel-check':
        if (this.timer) clearTimeout(this.timer);
        this.timer = undefined;
        break;
      case 'show':
        this.board.show(effect.state, effect.error);
        break;
    }
  }

  private async runCycle(): Promise<void> {
    const scanAll = this.scanNext;
    this.scanNext = false;
    const { signal } = this.stopping;
    try {
      await runFollowCycle(this.cycleDeps, scanAll);
      if (signal.aborted) return;
      this.firstCopied();
      this.dispatch({ type: 'cycle-done' });
    } catch (error) {
      if (isAbort(error, signal)) return;
      // The look at the whole folder is owed still; and after a folder that could not be written (gone, full,
      // unwritable), what is on it now is looked at whole: it may have been replaced or emptied meanwhile.
      if (scanAll || error instanceof FollowApplyError) this.scanNext = true;
      this.cycleDeps.domains.logger.warn('a followed folder could not be updated', { folder: this.cycleDeps.folderId, error: messageOf(error) });
      this.dispatch({ type: 'cycle-failed', message: messageOf(error) });
    } finally {
      this.cycleEnds.endAll();
    }
  }

  /** One long-poll loop for each extra source (a Pinfold that pushes starts a cycle at once). */
  private startPushLoops(init: FollowRunnerInit): Promise<void>[] {
    const { name, inbox, signal, domains, folderId } = this.cycleDeps;
    if (name === undefined) return [];
    const deps: PushLoopDeps = {
      fetcher: domains.fetcher,
      pushTiming: { ...DEFAULT_PUSH_TIMING, ...stripUndefined(init.timing?.push ?? {}) },
      pushWaitSeconds: init.timing?.pushWaitSeconds ?? DEFAULT_PUSH_WAIT_SECONDS,
      pollMs: this.timing.pollMs,
      inbox,
      signal,
      checkNow: () => {
        const ended = this.cycleEnds.next(signal);
        this.dispatch({ type: 'check-asked' });
        return ended;
      },
      liveChanged: (live) => this.dispatch({ type: 'push-live', live }),
    };
    return init.folder.followSources.map((source) =>
      runPushLoop(deps, source, name.name).catch((error: unknown) =>
        domains.logger.warn('a followed source push stopped', { folder: folderId, source, error: messageOf(error) }),
      ),
    );
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
