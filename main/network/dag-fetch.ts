import type { CID } from 'multiformats/cid';
import { OFFLOAD_MIN_BYTES, hashPool } from '../base/hash-pool.js';
import { IDENTITY_CODE, isVerifiableCid, verifyBlockAsync } from '../base/hashes.js';
import type { Logger } from '../base/logger.js';
import { multihashKey } from '../base/multihash-key.js';
import { readCarStream } from '../content/car/car-stream.js';
import { blockLinks, canHaveLinks, reasonOf } from '../content/walk/block-links.js';
import { walkDag } from '../content/walk/walk-dag.js';
import type { Blocks } from '../store/blocks.js';
import type { Transaction } from '../store/repositories/index.js';
import { BlockSink, type StoredBatch } from './block-sink.js';
import { UnfetchableDagError } from './fetch-errors.js';
import type { FetchTuning } from './fetch-tuning.js';
import type { GatewaySource } from './gateway-source.js';
import type { SourcePool } from './source-pool.js';
import { codecBit } from '../content/walk/codec-bit.js';

/** Blocks of a CAR hashing at once while the next sections are read (as dag/import's window). */
const CAR_VERIFY_WINDOW = 8;

/** A block as a CAR brought it, its hash being checked. */
interface ArrivedBlock {
  cid: CID;
  bytes: Uint8Array;
  verified: Promise<void>;
}

/** What a fetch has got so far: blocks and bytes received and verified, and the source that sent the last one. */
export interface FetchProgress {
  blocks: number;
  bytes: number;
  /** URL of the source that last answered with a block; null until one has. */
  source: string | null;
}

export interface FetchDagOptions {
  signal?: AbortSignal;
  /** Gateway URLs to ask besides the settings' (a pin's origins). */
  origins?: readonly string[];
  /**
   * Runs on the transaction that makes each batch of fetched blocks visible, with what it newly stores:
   * charge it, check it is still wanted. Throwing refuses the batch (nothing of it is stored) and ends the
   * fetch with that error.
   */
  onCommit?: (tx: Transaction, stored: StoredBatch) => Promise<void>;
  /**
   * Runs each batch's commit (outside its transaction), e.g. under the GC lock's shared side, so a GC cycle
   * never falls between its mark and its sweep: a batch committed there is neither marked nor, at a short
   * grace, young enough to be kept.
   */
  commitUnder?: <T>(commit: () => Promise<T>) => Promise<T>;
  onProgress?: (progress: FetchProgress) => void;
  /**
   * Trust that a held block's subtree is held whole: the walk stops at it, and no CAR of the whole DAG is
   * asked for (it would bring the held subtrees again). For a new version of a DAG whose older version is
   * held (a followed folder): only the blocks the new version adds cross the network. The caller checks the
   * DAG is complete afterwards (a crash may have left a subtree partial) and fetches again without it if not.
   */
  stopAtHeld?: boolean;
}

export interface FetchDagResult {
  /** Blocks and bytes this fetch received (verified and stored). */
  blocks: number;
  bytes: number;
  /**
   * Bytes of the whole DAG, as its last walk found it complete: the pin's size, without a walk of its own.
   * Undefined with `stopAtHeld`: that walk stops at held blocks, so it never sees the whole DAG.
   */
  dagBytes: number | undefined;
}

/** What a DAG fetch uses of the network and the store. */
export interface DagFetchDeps {
  blocks: Pick<Blocks, 'createBatch' | 'findBlock' | 'blockSize' | 'maxBlockBytes' | 'removals'>;
  pool: SourcePool;
  /** The gateway URLs to ask now, given the fetch's own; read at every decision, so a settings change applies at once. */
  sourceUrls: (own: readonly string[]) => readonly string[];
  /** Gateway URLs of the providers of a CID, found through routing. */
  findProviders?: (cid: CID, signal: AbortSignal) => AsyncIterable<string>;
  tuning: FetchTuning;
  logger: Logger;
}

/** Headroom for the CID in front of a block in a CAR section. */
const CID_ALLOWANCE = 128;
/** Wanted blocks looked at per dispatch: a long queue whose sources are all busy costs no more than this. */
const DISPATCH_SCAN = 256;
/** Provider lookups one fetch makes at most (one at the start, then one per round with nothing to ask). */
const MAX_PROVIDER_LOOKUPS = 16;

interface Want {
  cid: CID;
  /** Sources that did not have it, or failed it, this round. */
  tried: Set<string>;
}

/**
 * Fetches every block of the DAG under `root` that the store lacks, verified, into the store (see
 * {@link DagFetch}); resolves once the whole DAG is held.
 */
export async function fetchDag(deps: DagFetchDeps, root: CID, options: FetchDagOptions = {}): Promise<FetchDagResult> {
  return new DagFetch(deps, root, options).run();
}

/**
 * One DAG fetch. When the root itself is missing (so nothing under it is known to be held), the first
 * request for it is a CAR of the whole DAG (`dag-scope=all`, depth-first, no duplicates) from a source that
 * answers CARs: each block in it must be one the blocks before it link to (else it is dropped and the
 * source set aside) and hash to its CID. Otherwise, and for whatever a CAR did not bring (it failed
 * mid-way, or was short), the DAG is walked: held blocks are read locally, every missing block is asked of
 * one source at a time, spread over the sources with free slots, several at once. The links of each
 * block received are walked next, so no block is asked for before the block that links to it arrived;
 * blocks go into the store in batches (BlockSink). When no source has what is missing (or there is no
 * source at all), the fetch asks routing for providers and tries again after a delay, until its signal ends it. A last walk checks the
 * whole DAG is held (a held block may have been collected meanwhile) and goes round again if not.
 */
class DagFetch {
  /** Per multihash, the codecs walked or wanted already (a block may be linked as raw and as dag-pb). */
  private readonly seen = new Map<string, number>();
  /** Multihashes whose size is in {@link dagBytes}: every non-identity block this round found held or received. */
  private readonly counted = new Set<string>();
  /** Bytes of the unique blocks this round found held or received: the DAG's, once the round found nothing missing. */
  private dagBytes = 0;
  private queue: Want[] = [];
  private stalled: Want[] = [];
  private readonly tasks = new Set<Promise<void>>();
  private readonly own: Set<string>;
  private readonly carTried = new Set<string>();
  private readonly progress: FetchProgress = { blocks: 0, bytes: 0, source: null };
  private readonly controller = new AbortController();
  private readonly sink: BlockSink;
  private fatal: { error: unknown } | null = null;
  private waiter: (() => void) | null = null;
  private woken = false;
  private providerLookups = 0;
  private roundDelay: number;

  constructor(
    private readonly deps: DagFetchDeps,
    private readonly root: CID,
    private readonly options: FetchDagOptions,
  ) {
    this.own = new Set(options.origins ?? []);
    this.roundDelay = deps.tuning.roundDelayMs;
    this.sink = new BlockSink({
      blocks: deps.blocks,
      tuning: deps.tuning,
      ...(options.onCommit ? { onCommit: options.onCommit } : {}),
      ...(options.commitUnder ? { commitUnder: options.commitUnder } : {}),
    });
  }

  private get signal(): AbortSignal {
    return this.controller.signal;
  }

  async run(): Promise<FetchDagResult> {
    const forward = (): void => this.controller.abort(this.options.signal?.reason);
    if (this.options.signal?.aborted) forward();
    this.options.signal?.addEventListener('abort', forward, { once: true });
    const unsubscribe = this.deps.pool.onChange(() => this.wake());
    // With sources to ask, routing is asked only once they lack something (nextRound): a fetch they serve
    // makes no lookup at all, and never waits on the routing library's first load (hundreds of ms of main thread).
    if (this.sources().length === 0) this.lookUpProviders(this.root);
    try {
      for (;;) {
        const removals = this.deps.blocks.removals;
        await this.pass();
        await this.settleTasks();
        await this.sink.flush();
        const { missing, dagBytes } = await this.missingBlocks(removals);
        if (missing === 0) return { blocks: this.progress.blocks, bytes: this.progress.bytes, dagBytes };
        // A block the walk found held was collected since (or arrived under another codec): round again.
        this.deps.logger.debug('fetch: blocks still missing after a pass; walking again', { root: this.root.toString(), missing });
        this.seen.clear();
        this.counted.clear();
        this.dagBytes = 0;
        this.carTried.clear();
        await this.sleep(this.deps.tuning.roundDelayMs);
      }
    } catch (error) {
      this.sink.abort();
      throw this.signal.aborted && this.options.signal?.aborted ? this.options.signal.reason : error;
    } finally {
      this.options.signal?.removeEventListener('abort', forward);
      unsubscribe();
      this.controller.abort();
      await this.drainTasks();
    }
  }

  /**
   * What the DAG still lacks after a pass. The pass itself walked every block of the DAG, held or received
   * (each received one committed by now): if no block left the store since it began (garbage collection
   * moves `removals`; nothing else removes), that walk is the proof, and its sizes are the DAG's. Otherwise
   * a block it found held may be gone: the whole walk again, or with `stopAtHeld` the walk down to held blocks.
   */
  private async missingBlocks(removalsAtStart: number): Promise<{ missing: number; dagBytes: number | undefined }> {
    const wholeDag = this.options.stopAtHeld !== true;
    if (this.deps.blocks.removals === removalsAtStart) return { missing: 0, dagBytes: wholeDag ? this.dagBytes : undefined };
    if (!wholeDag) {
      const queue = this.queue;
      this.queue = [];
      this.seen.clear();
      await this.explore(this.root);
      const missing = this.queue.length;
      this.queue = queue;
      return { missing, dagBytes: undefined };
    }
    const summary = await walkDag(this.deps.blocks, this.root, { signal: this.signal });
    const [unreadable] = summary.unreadable;
    if (unreadable !== undefined) throw new UnfetchableDagError(`block ${unreadable.toString()} cannot be read under its codec`);
    return { missing: summary.missing.length, dagBytes: summary.bytes };
  }

  /** Walks from the root and asks for what is missing until nothing is, or nothing can be, asked. */
  private async pass(): Promise<void> {
    await this.explore(this.root);
    for (;;) {
      this.throwIfFailed();
      this.woken = false;
      this.dispatch();
      if (this.tasks.size === 0 && this.queue.length === 0) {
        if (this.stalled.length === 0) return;
        await this.nextRound();
        continue;
      }
      await this.sleep(this.tasks.size === 0 ? (this.nextReadyMs() ?? this.deps.tuning.roundDelayMaxMs) : null);
    }
  }

  /** Walks held blocks from `start` and queues every missing one it reaches (each multihash and codec once). */
  private async explore(start: CID): Promise<void> {
    const stack: CID[] = [start];
    while (stack.length > 0) {
      this.signal.throwIfAborted();
      const cid = stack.pop() as CID;
      if (!this.mark(cid)) continue;
      const links = await this.heldLinks(cid);
      if (links === null) this.queue.push({ cid, tried: new Set() });
      else for (let i = links.length - 1; i >= 0; i--) stack.push(links[i] as CID);
    }
  }

  /** The links of a held block (none for a leaf, or with `stopAtHeld`), or null when it is not held. */
  private async heldLinks(cid: CID): Promise<CID[] | null> {
    if (cid.multihash.code === IDENTITY_CODE) return canHaveLinks(cid.code) ? linksOf(cid, cid.multihash.digest) : [];
    if (!isVerifiableCid(cid)) throw new UnfetchableDagError(`block ${cid.toString()} uses a hash Pinfold cannot verify`);
    if (!canHaveLinks(cid.code) || this.options.stopAtHeld === true) {
      const size = await this.deps.blocks.blockSize(cid);
      if (size === undefined) return null;
      this.count(cid, size);
      return [];
    }
    const bytes = await this.deps.blocks.findBlock(cid, { signal: this.signal });
    if (bytes === undefined) return null;
    const links = linksOf(cid, bytes);
    this.count(cid, bytes.byteLength);
    return links;
  }

  /** Adds a held or received block's size to the DAG's, once per multihash (as a walk counts). */
  private count(cid: CID, size: number): void {
    const key = multihashKey(cid.multihash.bytes);
    if (this.counted.has(key)) return;
    this.counted.add(key);
    this.dagBytes += size;
  }

  /** Marks the CID's multihash as walked under its codec; false when it was already. */
  private mark(cid: CID): boolean {
    const key = multihashKey(cid.multihash.bytes);
    const bit = codecBit(cid.code);
    const seen = this.seen.get(key) ?? 0;
    if ((seen & bit) !== 0) return false;
    this.seen.set(key, seen | bit);
    return true;
  }

  /** Sources to ask now: the settings' and this fetch's own (origins, providers found). */
  private sources(): GatewaySource[] {
    return this.deps.pool.sourcesFor(this.deps.sourceUrls([...this.own]));
  }

  /** Hands queued blocks to sources with a free slot, the least busy first; blocks every source failed wait for the next round. */
  private dispatch(): void {
    const sources = this.sources();
    const keep: Want[] = [];
    for (let scanned = 0; this.queue.length > 0 && scanned < DISPATCH_SCAN; scanned++) {
      if (!sources.some((source) => source.canTake())) break;
      const want = this.queue.pop() as Want;
      const untried = sources.filter((source) => !want.tried.has(source.url));
      if (untried.length === 0) {
        // Every source failed it this round (or there is none): it waits for the next round.
        this.stalled.push(want);
        continue;
      }
      let best: GatewaySource | undefined;
      for (const source of untried) if (source.canTake() && (best === undefined || source.inFlight < best.inFlight)) best = source;
      if (best === undefined || !best.tryAcquire()) {
        keep.push(want);
        continue;
      }
      this.start(want, best);
    }
    for (let i = keep.length - 1; i >= 0; i--) this.queue.push(keep[i] as Want);
  }

  private start(want: Want, source: GatewaySource): void {
    const task = (async () => {
      try {
        if (this.wantsCar(want, source)) await this.fetchCar(want, source);
        else await this.fetchBlock(want, source);
      } catch (error) {
        if (!this.signal.aborted || this.fatal === null) this.fail(error);
      } finally {
        source.release();
      }
    })();
    this.tasks.add(task);
    void task.finally(() => {
      this.tasks.delete(task);
      this.wake();
    });
  }

  /** A CAR of the whole DAG is asked for once per source, while nothing of it has arrived and its root is missing. */
  private wantsCar(want: Want, source: GatewaySource): boolean {
    return this.options.stopAtHeld !== true && source.answersCars && !this.carTried.has(source.url) && this.progress.blocks === 0 && want.cid.equals(this.root);
  }

  private async fetchBlock(want: Want, source: GatewaySource): Promise<void> {
    const answer = await source.getBlock(want.cid, this.signal);
    switch (answer.kind) {
      case 'block': {
        const links = await this.accept([want.cid], answer.bytes, source);
        for (const link of links) await this.explore(link);
        return;
      }
      case 'busy':
        this.queue.push(want);
        return;
      case 'wrong':
        this.deps.logger.warn('fetch: a source sent a block that does not match its CID; set aside', { source: source.url, cid: want.cid.toString() });
        break;
      case 'failed':
        this.deps.logger.debug('fetch: block request failed', { source: source.url, cid: want.cid.toString(), reason: answer.reason });
        break;
      case 'absent':
        break;
    }
    want.tried.add(source.url);
    this.queue.push(want);
  }

  /**
   * The DAG as one CAR, read as it streams. Every block must be one a block before it links to (depth-first
   * order) and hash to its CID; the first that is not ends the CAR, the source set aside. What the CAR
   * did not bring is walked from what is held and asked for block by block.
   */
  private async fetchCar(want: Want, source: GatewaySource): Promise<void> {
    const answer = await source.getCar(want.cid, this.signal);
    if (answer.kind !== 'car') {
      // Busy: the same CAR once its Retry-After has passed. Refused: the source is asked for blocks from now on.
      if (answer.kind === 'absent' || answer.kind === 'failed') {
        want.tried.add(source.url);
        this.carTried.add(source.url);
      }
      this.queue.push(want);
      return;
    }
    this.carTried.add(source.url);
    const pending = new Map<string, CID[]>([[multihashKey(want.cid.multihash.bytes), [want.cid]]]);
    const pool = hashPool();
    let clean = true;
    try {
      const car = await readCarStream(answer.body, {
        maxSectionBytes: this.deps.blocks.maxBlockBytes + CID_ALLOWANCE,
        // Large sections go to the hash workers without a copy (as dag/import does).
        allocate: (length) => (length >= OFFLOAD_MIN_BYTES ? pool.allocate(length) : new Uint8Array(length)),
      });
      // Blocks hash on the workers while the next sections are read (as dag/import does); each is judged
      // and stored in CAR order, so a block is only ever taken once every block before it was.
      const window: ArrivedBlock[] = [];
      // A CAR that breaks off still gives what arrived whole: the blocks in the window are taken first.
      let brokeOff: Error | undefined;
      try {
        const blocks = car.blocks[Symbol.asyncIterator]();
        for (;;) {
          let next: IteratorResult<{ cid: CID; bytes: Uint8Array }>;
          try {
            next = await blocks.next();
          } catch (error) {
            brokeOff = error instanceof Error ? error : new Error(String(error));
            break;
          }
          if (next.done === true) break;
          const block = next.value;
          if (block.cid.multihash.code === IDENTITY_CODE) continue;
          const verified = verifyBlockAsync(block.cid, block.bytes);
          // Observed now: a failure while later sections are read is judged in its turn, not unhandled.
          verified.catch(() => undefined);
          window.push({ cid: block.cid, bytes: block.bytes, verified });
          if (window.length >= CAR_VERIFY_WINDOW && !(await this.takeFromCar(window.shift() as ArrivedBlock, pending, source, pool))) {
            clean = false;
            await blocks.return?.(undefined);
            break;
          }
        }
        while (clean && window.length > 0) {
          if (!(await this.takeFromCar(window.shift() as ArrivedBlock, pending, source, pool))) clean = false;
        }
      } finally {
        // Blocks never taken go back to the arena.
        for (const block of window.splice(0)) pool.release(block.bytes);
      }
      if (brokeOff !== undefined) throw brokeOff;
    } catch (error) {
      if (this.signal.aborted || this.fatal !== null) throw error;
      // A CAR that stops mid-way (the connection dropped, a stall, a torn section): keep what arrived.
      clean = false;
      source.health.failed();
      this.deps.logger.debug('fetch: CAR ended early; going on block by block', { source: source.url, reason: reasonOf(error) });
    } finally {
      answer.cancel();
    }
    if (clean) source.health.succeeded();
    if (this.progress.blocks === 0) {
      // Not even the root came: it is still wanted, from another source or block by block.
      if (!clean) want.tried.add(source.url);
      this.queue.push(want);
      return;
    }
    // What the CAR left out: held already (walked locally), or asked for block by block.
    for (const cids of pending.values()) {
      for (const cid of cids) {
        // Marked when its parent arrived; unmarked so the walk looks at it now.
        const key = multihashKey(cid.multihash.bytes);
        this.seen.set(key, (this.seen.get(key) ?? 0) & ~codecBit(cid.code));
        await this.explore(cid);
      }
    }
  }

  /**
   * One block of a CAR, in CAR order: it must be one a block taken before links to, and hash to its CID;
   * then its links join the wanted ones and it is stored. False when it is not (the CAR ends there and the
   * source is set aside); the block's bytes are then given back.
   */
  private async takeFromCar(block: ArrivedBlock, pending: Map<string, CID[]>, source: GatewaySource, pool: ReturnType<typeof hashPool>): Promise<boolean> {
    const key = multihashKey(block.cid.multihash.bytes);
    const asked = pending.get(key);
    if (asked === undefined) {
      pool.release(block.bytes);
      if (this.seen.has(key)) return true; // sent twice: harmless
      this.deps.logger.warn('fetch: a CAR held a block the DAG does not link to; dropped, source set aside', {
        source: source.url,
        cid: block.cid.toString(),
      });
      source.health.misbehaved();
      return false;
    }
    try {
      await block.verified;
    } catch (error) {
      pool.release(block.bytes);
      this.deps.logger.warn('fetch: a CAR held a block that does not match its CID; dropped, source set aside', {
        source: source.url,
        reason: reasonOf(error),
      });
      source.health.misbehaved();
      return false;
    }
    pending.delete(key);
    try {
      for (const link of await this.accept(asked, block.bytes, source, () => pool.release(block.bytes))) {
        if (link.multihash.code === IDENTITY_CODE) {
          await this.explore(link);
          continue;
        }
        if (!isVerifiableCid(link)) throw new UnfetchableDagError(`block ${link.toString()} uses a hash Pinfold cannot verify`);
        if (!this.mark(link)) continue;
        const linkKey = multihashKey(link.multihash.bytes);
        pending.set(linkKey, [...(pending.get(linkKey) ?? []), link]);
      }
    } catch (error) {
      // Not the CAR's fault (a refused commit, a block Pinfold cannot follow): the fetch ends with it.
      this.fail(error);
      throw error;
    }
    return true;
  }

  /** A verified block: its links read (so a block Pinfold cannot follow is never stored), staged, counted. */
  private async accept(cids: readonly CID[], bytes: Uint8Array, source: GatewaySource, release?: () => void): Promise<CID[]> {
    const links: CID[] = [];
    try {
      for (const cid of cids) if (canHaveLinks(cid.code)) links.push(...linksOf(cid, bytes));
    } catch (error) {
      release?.();
      throw error;
    }
    await this.sink.put(cids[0] as CID, bytes, release);
    this.count(cids[0] as CID, bytes.byteLength);
    this.progress.blocks++;
    this.progress.bytes += bytes.byteLength;
    this.progress.source = source.url;
    this.options.onProgress?.({ ...this.progress });
    return links;
  }

  /** Nothing left that any source may be asked this round: wait, look for providers, and ask everyone again. */
  private async nextRound(): Promise<void> {
    const first = this.stalled[0];
    if (first !== undefined) this.lookUpProviders(first.cid);
    await this.sleep(this.roundDelay);
    this.roundDelay = Math.min(this.deps.tuning.roundDelayMaxMs, this.roundDelay * 2);
    for (const want of this.stalled.splice(0)) {
      want.tried.clear();
      this.queue.push(want);
    }
  }

  /**
   * Until the earliest source that is waiting (a backoff, a Retry-After) may be asked again; null when none
   * is waiting (a source with no free slot is waited for through the pool's release).
   */
  private nextReadyMs(): number | null {
    const now = performance.now();
    let soonest = Number.POSITIVE_INFINITY;
    for (const source of this.sources()) {
      const wait = source.health.readyAt() - now;
      if (wait > 0) soonest = Math.min(soonest, wait);
    }
    return Number.isFinite(soonest) ? Math.ceil(soonest) : null;
  }

  private lookUpProviders(cid: CID): void {
    const { findProviders } = this.deps;
    if (findProviders === undefined || this.providerLookups >= MAX_PROVIDER_LOOKUPS) return;
    this.providerLookups++;
    void (async () => {
      try {
        for await (const url of findProviders(cid, this.signal)) {
          if (this.own.has(url)) continue;
          this.own.add(url);
          this.wake();
        }
      } catch (error) {
        if (!this.signal.aborted) this.deps.logger.debug('fetch: provider lookup failed', { cid: cid.toString(), reason: reasonOf(error) });
      }
    })();
  }

  private fail(error: unknown): void {
    this.fatal ??= { error };
    this.controller.abort(error);
    this.wake();
  }

  private throwIfFailed(): void {
    if (this.fatal !== null) throw this.fatal.error;
    this.signal.throwIfAborted();
  }

  /** Waits for every request under way, then throws what failed the fetch, if anything did. */
  private async settleTasks(): Promise<void> {
    await this.drainTasks();
    this.throwIfFailed();
  }

  private async drainTasks(): Promise<void> {
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
  }

  private wake(): void {
    this.woken = true;
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.();
  }

  /** Until woken (a request ended, a slot freed, the sources changed), `ms` passed, or the fetch ends. */
  private sleep(ms: number | null): Promise<void> {
    if (this.woken || this.signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = (): void => {
        if (timer) clearTimeout(timer);
        this.signal.removeEventListener('abort', done);
        this.waiter = null;
        resolve();
      };
      const timer = ms === null ? null : setTimeout(done, ms);
      this.signal.addEventListener('abort', done, { once: true });
      this.waiter = done;
    });
  }
}

function linksOf(cid: CID, bytes: Uint8Array): CID[] {
  try {
    return blockLinks(cid, bytes);
  } catch (error) {
    throw new UnfetchableDagError(`block ${cid.toString()} cannot be read under its codec: ${reasonOf(error)}`);
  }
}
