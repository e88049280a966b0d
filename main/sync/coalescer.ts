/**
 * The event coalescer: raw watcher (or scanner) events in, one settled batch of net changes out.
 * PURE: no I/O and no timers. Time arrives inside the events (`at`) and as the `nowMs` argument of
 * `take`, so every rule is unit-tested with synthetic sequences; the watcher owns the one timer.
 *
 * Default timing, and why: the change-latency target is p50 < 1.5 s from a write to the new root
 * being served. A file first has to hold still for the watcher's stability check (200 ms, polled
 * every 50 ms), then the batch needs a quiet period so that a burst (an unzip, a `git checkout`, an
 * editor's save-by-rename) lands as one root rather than dozens. 400 ms of quiet covers the gaps
 * inside such bursts (they are single-digit ms apart) and the 100 ms chokidar needs to re-read a
 * directory, and leaves ~800 ms of the budget for import + folder operations + pin + publish.
 * `maxBatchMs` bounds the wait under a continuous stream of changes, so a busy folder still
 * publishes every few seconds instead of never.
 */

export const DEFAULT_SETTLE_MS = 400;
export const DEFAULT_MAX_BATCH_MS = 5_000;

export type RawEventKind = 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir';
export type EntryKind = 'file' | 'dir';

/** What is known of a file's identity: for a delete, the state before it; otherwise the state now. */
export interface FileStat {
  size?: number;
  mtimeMs?: number;
  /** Inode (or file id): a rename keeps it, so same ino + size + mtime means the same content. */
  ino?: number;
  /** A content hash or CID, when the producer has one; stronger than ino for pairing moves. */
  fingerprint?: string;
}

/** Same size, mtime and inode: the same file, unchanged (how a watcher or a reader tells a file held still). */
export function sameStat(a: FileStat, b: FileStat): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}

export interface RawEvent extends FileStat {
  kind: RawEventKind;
  /** Relative to the folder root, `/`-separated, without leading or trailing slash. */
  path: string;
  /** Milliseconds (any monotonic or wall clock, the same for every event of one coalescer). */
  at: number;
}

export type Change =
  | ({ type: 'add'; kind: 'file'; path: string } & FileStat)
  | { type: 'add'; kind: 'dir'; path: string }
  | ({ type: 'change'; kind: 'file'; path: string } & FileStat)
  | { type: 'remove'; kind: EntryKind; path: string }
  /**
   * `to` receives the content `from` had before the batch (no need to read the file again).
   * `removesSource`: the move also stands for the removal of `from`; false when `from` still exists
   * (a swap) or when a removed ancestor folder already covers it.
   */
  | ({ type: 'move'; kind: 'file'; from: string; to: string; removesSource: boolean } & FileStat);

export interface Batch {
  changes: Change[];
  firstEventAt: number;
  lastEventAt: number;
  eventCount: number;
}

export interface CoalesceOptions {
  /** Fold case (and Unicode normalization) of paths, for case-insensitive file systems. */
  caseInsensitive?: boolean;
}

export interface CoalescerOptions extends CoalesceOptions {
  settleMs?: number;
  maxBatchMs?: number;
}

export interface Coalescer {
  push(event: RawEvent): void;
  /** When the pending batch settles, or undefined when nothing is pending. */
  dueAt(): number | undefined;
  /**
   * The settled batch if `nowMs` has reached `dueAt()`, else undefined (and nothing changes).
   * `holdForWrites`: files are still being written (their events are on the way), so a settled batch
   * waits for them, though never past `maxBatchMs` from its first event: one burst, one root.
   */
  take(nowMs: number, holdForWrites?: boolean): Batch | undefined;
  /** The pending batch now, settled or not (shutdown, tests, a scan's result). */
  flush(): Batch | undefined;
  /** Raw events waiting. */
  readonly pending: number;
}

export function createCoalescer(options: CoalescerOptions = {}): Coalescer {
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
  const maxBatchMs = options.maxBatchMs ?? DEFAULT_MAX_BATCH_MS;
  let events: RawEvent[] = [];
  let firstAt = 0;
  let lastAt = 0;

  const dueAt = (): number | undefined => (events.length === 0 ? undefined : Math.min(lastAt + settleMs, firstAt + maxBatchMs));

  const flush = (): Batch | undefined => {
    if (events.length === 0) return undefined;
    const batch: Batch = {
      changes: coalesce(events, options),
      firstEventAt: firstAt,
      lastEventAt: lastAt,
      eventCount: events.length,
    };
    events = [];
    return batch;
  };

  return {
    push(event) {
      if (events.length === 0) {
        firstAt = event.at;
        lastAt = event.at;
      } else lastAt = Math.max(lastAt, event.at);
      events.push(event);
    },
    dueAt,
    take(nowMs, holdForWrites = false) {
      const due = dueAt();
      if (due === undefined || nowMs < due) return undefined;
      if (holdForWrites && nowMs < firstAt + maxBatchMs) return undefined;
      return flush();
    },
    flush,
    get pending() {
      return events.length;
    },
  };
}

/** One path's history within the batch. `before` is its kind at batch start (null: absent). */
interface Slot {
  key: string;
  firstPath: string;
  path: string;
  before: EntryKind | null;
  now: EntryKind | null;
  /** Existed at batch start, then was deleted at some point (a folder re-created is a new folder). */
  deleted: boolean;
  /** An add or change was seen: the bytes must be read again. */
  written: boolean;
  stat: FileStat;
  /** Identity of the pre-batch file, from a delete seen before any write: the source side of a move. */
  beforeStat: FileStat | undefined;
}

export function foldPath(path: string, caseInsensitive: boolean): string {
  return caseInsensitive ? path.normalize('NFC').toLowerCase() : path;
}

function statOf(event: RawEvent): FileStat {
  const stat: FileStat = {};
  if (event.size !== undefined) stat.size = event.size;
  if (event.mtimeMs !== undefined) stat.mtimeMs = event.mtimeMs;
  if (event.ino !== undefined) stat.ino = event.ino;
  if (event.fingerprint !== undefined) stat.fingerprint = event.fingerprint;
  return stat;
}

/** Identity key for move pairing, or undefined when the stat is too thin to pair safely. */
function identity(stat: FileStat | undefined): string | undefined {
  if (!stat || stat.size === undefined) return undefined;
  if (stat.fingerprint !== undefined) return `f:${stat.size}:${stat.fingerprint}`;
  if (stat.ino !== undefined && stat.mtimeMs !== undefined) return `i:${stat.size}:${stat.ino}:${stat.mtimeMs}`;
  return undefined;
}

function ancestorsOf(key: string): string[] {
  const out: string[] = [];
  let at = key.lastIndexOf('/');
  while (at > 0) {
    out.push(key.slice(0, at));
    at = key.lastIndexOf('/', at - 1);
  }
  return out;
}

/** Folds a sequence of raw events (in arrival order) into net changes, by the rules in this file. */
export function coalesce(events: readonly RawEvent[], options: CoalesceOptions = {}): Change[] {
  const caseInsensitive = options.caseInsensitive ?? false;
  const slots = new Map<string, Slot>();

  const slotFor = (path: string, firstKind: RawEventKind): Slot => {
    const key = foldPath(path, caseInsensitive);
    let slot = slots.get(key);
    if (!slot) {
      const before: EntryKind | null = firstKind === 'unlink' || firstKind === 'change' ? 'file' : firstKind === 'unlinkDir' ? 'dir' : null;
      slot = { key, firstPath: path, path, before, now: before, deleted: false, written: false, stat: {}, beforeStat: undefined };
      slots.set(key, slot);
    }
    return slot;
  };

  // A child appearing under a folder that this batch deleted means the folder came back.
  const reviveAncestors = (key: string): void => {
    for (const ancestor of ancestorsOf(key)) {
      const slot = slots.get(ancestor);
      if (slot && slot.now === null) slot.now = 'dir';
    }
  };

  for (const event of events) {
    const path = trimSlashes(event.path);
    if (path === '') continue; // the root itself: its loss is the unmounted-drive rule, not a change
    const slot = slotFor(path, event.kind);
    slot.path = path;
    switch (event.kind) {
      case 'add':
      case 'change':
        reviveAncestors(slot.key);
        slot.now = 'file';
        slot.written = true;
        slot.stat = statOf(event);
        break;
      case 'addDir':
        reviveAncestors(slot.key);
        slot.now = 'dir';
        break;
      case 'unlink':
        if (slot.before === 'file' && !slot.written && !slot.deleted) slot.beforeStat = statOf(event);
        if (slot.before !== null) slot.deleted = true;
        slot.now = null;
        slot.written = false;
        break;
      case 'unlinkDir': {
        if (slot.before !== null) slot.deleted = true;
        slot.now = null;
        const prefix = `${slot.key}/`;
        for (const child of slots.values()) {
          if (!child.key.startsWith(prefix) || child.now === null) continue;
          if (child.before !== null) child.deleted = true;
          child.now = null;
          child.written = false;
        }
        break;
      }
    }
  }

  // A folder "gone" at batch end is removed; one deleted and re-created is replaced (starts empty).
  const removedDirs = new Set<string>();
  const replacedDirs = new Set<string>();
  for (const slot of slots.values()) {
    if (slot.before !== 'dir') continue;
    if (slot.now === null || slot.now === 'file') removedDirs.add(slot.key);
    else if (slot.deleted) replacedDirs.add(slot.key);
  }
  const coveredBy = (key: string, set: Set<string>): boolean => ancestorsOf(key).some((a) => set.has(a));

  const changes: Change[] = [];
  const sources = new Map<string, { slot: Slot; standalone: boolean }[]>();
  const addSource = (slot: Slot, standalone: boolean): void => {
    const id = identity(slot.beforeStat);
    if (id === undefined) return;
    const list = sources.get(id) ?? [];
    list.push({ slot, standalone });
    sources.set(id, list);
  };
  const targets: { slot: Slot; change: Change }[] = [];
  const standaloneRemoves = new Map<string, Change>();

  const pushWrite = (slot: Slot, type: 'add' | 'change'): void => {
    const change: Change = { type, kind: 'file', path: slot.path, ...slot.stat };
    changes.push(change);
    targets.push({ slot, change });
  };

  for (const slot of slots.values()) {
    if (coveredBy(slot.key, removedDirs)) {
      if (slot.before === 'file') addSource(slot, false);
      continue;
    }
    const emptied = coveredBy(slot.key, replacedDirs);
    if (emptied) {
      if (slot.before === 'file') addSource(slot, false);
      if (slot.now === 'dir') changes.push({ type: 'add', kind: 'dir', path: slot.path });
      else if (slot.now === 'file') pushWrite(slot, 'add');
      continue;
    }
    const { before, now } = slot;
    if (before === null) {
      if (now === 'dir') changes.push({ type: 'add', kind: 'dir', path: slot.path });
      else if (now === 'file') pushWrite(slot, 'add');
      continue;
    }
    const respelled = slot.firstPath !== slot.path;
    if (now === null || now !== before || respelled || (before === 'dir' && slot.deleted)) {
      const remove: Change = { type: 'remove', kind: before, path: slot.firstPath };
      changes.push(remove);
      if (before === 'file') {
        addSource(slot, now === null || respelled);
        if (now === null || respelled) standaloneRemoves.set(slot.key, remove);
      }
      if (now === 'dir') changes.push({ type: 'add', kind: 'dir', path: slot.path });
      else if (now === 'file') pushWrite(slot, 'add');
      continue;
    }
    if (before === 'file') {
      if (slot.deleted) addSource(slot, false);
      if (slot.written) pushWrite(slot, 'change');
    }
  }

  // Pair each written file with a deleted file of the same identity: a move (or a rename onto an
  // existing name). First come, first paired, each side at most once.
  const replaced = new Map<Change, Change>();
  const dropped = new Set<Change>();
  for (const { slot, change } of targets) {
    const id = identity(slot.stat);
    const candidates = id === undefined ? undefined : sources.get(id);
    // A slot pairs with itself only for a case-only rename; otherwise it is an in-place rewrite.
    const index = candidates?.findIndex((c) => c.slot !== slot || slot.firstPath !== slot.path) ?? -1;
    if (!candidates || index < 0) continue;
    const [source] = candidates.splice(index, 1);
    if (!source) continue;
    const remove = source.standalone ? standaloneRemoves.get(source.slot.key) : undefined;
    if (remove) dropped.add(remove);
    replaced.set(change, {
      type: 'move',
      kind: 'file',
      from: source.slot.firstPath,
      to: slot.path,
      removesSource: remove !== undefined,
      ...slot.stat,
    });
  }

  const out = changes.filter((c) => !dropped.has(c)).map((c) => replaced.get(c) ?? c);
  return out.sort(compareChanges);
}

const RANK: Record<Change['type'], number> = { remove: 0, move: 2, add: 1, change: 3 };

/** Removes first, then folders (shallow first), then moves, adds and changes; stable by path. */
function compareChanges(a: Change, b: Change): number {
  const rank = (c: Change): number => (c.type === 'add' && c.kind === 'file' ? 3 : RANK[c.type]);
  const diff = rank(a) - rank(b);
  if (diff !== 0) return diff;
  const pa = a.type === 'move' ? a.to : a.path;
  const pb = b.type === 'move' ? b.to : b.path;
  if (a.type === 'add' && a.kind === 'dir') {
    const depth = pa.split('/').length - pb.split('/').length;
    if (depth !== 0) return depth;
  }
  return pa < pb ? -1 : pa > pb ? 1 : 0;
}

function trimSlashes(path: string): string {
  let start = 0;
  let end = path.length;
  while (start < end && path[start] === '/') start++;
  while (end > start && path[end - 1] === '/') end--;
  return path.slice(start, end);
}
