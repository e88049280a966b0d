import type { Change, FileStat } from './coalescer.js';
import { ancestorsOf, type Slot } from './coalesce-slots.js';

/**
 * The second step of coalescing: the net changes the replayed slots stand for, deleted and written
 * files of one identity paired into moves, in the order the reconciler applies them. Pure.
 */

/** Net changes of `slots` (in their order), moves paired, sorted by {@link compareChanges}. */
export function netChanges(slots: Iterable<Slot>): Change[] {
  const all = [...slots];
  const fates = folderFates(all);
  const list = new ChangeList();
  for (const slot of all) judgeSlot(list, slot, fates);
  return list.pairMoves().sort(compareChanges);
}

/** Folders of the batch start "gone" at its end (removed) or deleted and re-created (replaced: start empty). */
export interface FolderFates {
  removed: ReadonlySet<string>;
  replaced: ReadonlySet<string>;
}

export function folderFates(slots: Iterable<Slot>): FolderFates {
  const removed = new Set<string>();
  const replaced = new Set<string>();
  for (const slot of slots) {
    if (slot.before !== 'dir') continue;
    if (slot.now === null || slot.now === 'file') removed.add(slot.key);
    else if (slot.deleted) replaced.add(slot.key);
  }
  return { removed, replaced };
}

const coveredBy = (key: string, set: ReadonlySet<string>): boolean => ancestorsOf(key).some((a) => set.has(a));

/** What one slot adds to the list. */
function judgeSlot(list: ChangeList, slot: Slot, fates: FolderFates): void {
  if (coveredBy(slot.key, fates.removed)) {
    if (slot.before === 'file') list.source(slot, false);
    return;
  }
  const { before, now } = slot;
  if (coveredBy(slot.key, fates.replaced) || before === null) {
    // Under a re-created folder everything there now is new; a deleted file there may still be a move's source.
    if (before === 'file') list.source(slot, false);
    list.appear(slot);
    return;
  }
  const respelled = slot.firstPath !== slot.path;
  if (now === null || now !== before || respelled || (before === 'dir' && slot.deleted)) {
    list.remove(slot, before, now === null || respelled);
    list.appear(slot);
    return;
  }
  if (before === 'file') {
    if (slot.deleted) list.source(slot, false);
    if (slot.written) list.write(slot, 'change');
  }
}

/** Identity key for move pairing, or undefined when the stat is too thin to pair safely. */
export function identity(stat: FileStat | undefined): string | undefined {
  if (!stat || stat.size === undefined) return undefined;
  if (stat.fingerprint !== undefined) return `f:${stat.size}:${stat.fingerprint}`;
  if (stat.ino !== undefined && stat.mtimeMs !== undefined) return `i:${stat.size}:${stat.ino}:${stat.mtimeMs}`;
  return undefined;
}

interface MoveSource {
  slot: Slot;
  /** Its remove stands alone in the list (nothing else takes its name): a move that pairs with it replaces it. */
  standalone: boolean;
}

/** The changes being collected, with the deleted files (sources) and written files (targets) a move may pair. */
class ChangeList {
  private readonly changes: Change[] = [];
  private readonly sources = new Map<string, MoveSource[]>();
  private readonly targets: { slot: Slot; change: Change }[] = [];
  private readonly standaloneRemoves = new Map<string, Change>();

  /** What the slot is at batch end, where nothing was before (as far as the batch is concerned). */
  appear(slot: Slot): void {
    if (slot.now === 'dir') this.changes.push({ type: 'add', kind: 'dir', path: slot.path });
    else if (slot.now === 'file') this.write(slot, 'add');
  }

  write(slot: Slot, type: 'add' | 'change'): void {
    const change: Change = { type, kind: 'file', path: slot.path, ...slot.stat };
    this.changes.push(change);
    this.targets.push({ slot, change });
  }

  remove(slot: Slot, kind: NonNullable<Slot['before']>, standalone: boolean): void {
    const remove: Change = { type: 'remove', kind, path: slot.firstPath };
    this.changes.push(remove);
    if (kind !== 'file') return;
    this.source(slot, standalone);
    if (standalone) this.standaloneRemoves.set(slot.key, remove);
  }

  source(slot: Slot, standalone: boolean): void {
    const id = identity(slot.beforeStat);
    if (id === undefined) return;
    const list = this.sources.get(id) ?? [];
    list.push({ slot, standalone });
    this.sources.set(id, list);
  }

  /**
   * Pairs each written file with a deleted file of the same identity: a move (or a rename onto an
   * existing name). First come, first paired, each side at most once.
   */
  pairMoves(): Change[] {
    const replaced = new Map<Change, Change>();
    const dropped = new Set<Change>();
    for (const { slot, change } of this.targets) {
      const id = identity(slot.stat);
      const candidates = id === undefined ? undefined : this.sources.get(id);
      // A slot pairs with itself only for a case-only rename; otherwise it is an in-place rewrite.
      const index = candidates?.findIndex((c) => c.slot !== slot || slot.firstPath !== slot.path) ?? -1;
      if (!candidates || index < 0) continue;
      const [source] = candidates.splice(index, 1);
      if (!source) continue;
      const remove = source.standalone ? this.standaloneRemoves.get(source.slot.key) : undefined;
      if (remove) dropped.add(remove);
      replaced.set(change, { type: 'move', kind: 'file', from: source.slot.firstPath, to: slot.path, removesSource: remove !== undefined, ...slot.stat });
    }
    return this.changes.filter((c) => !dropped.has(c)).map((c) => replaced.get(c) ?? c);
  }
}

const RANK: Record<Change['type'], number> = { remove: 0, move: 2, add: 1, change: 3 };

/** Removes first, then folders (shallow first), then moves, adds and changes; stable by path. */
export function compareChanges(a: Change, b: Change): number {
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
