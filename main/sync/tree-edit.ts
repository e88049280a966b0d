import type { JournalOp, SyncEntry } from '../store/repositories/sync.js';

/**
 * The edit one batch makes to a folder's tree, planned before anything is written: which entries go,
 * which files are placed where, which directories start empty, and the journal ops that record it.
 * The stored entries arrive through `lookup`, one at a time (the planning runs one step at a time);
 * no file or block I/O happens here: the reconciler imports the files and applies the directory
 * operations in {@link TreeEdit.rebuildOrder}.
 */

export interface DirOperation {
  /** Entries to set; an existing entry of the same name is replaced. Applied after `remove`. */
  add: { name: string; cid: string }[];
  /** Names to drop (spelled as in the directory). A name that is not there is not an error. */
  remove: string[];
}

export interface DirPlan {
  key: string;
  path: string;
  /** Start from the empty directory (a new folder, or one deleted and re-created). */
  reset: boolean;
  add: Map<string, { name: string; cid: string }>;
  remove: Set<string>;
}

export const parentOf = (p: string): string => {
  const at = p.lastIndexOf('/');
  return at < 0 ? '' : p.slice(0, at);
};
const nameOf = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
const depthOf = (p: string): number => (p === '' ? 0 : p.split('/').length);

/** The operation a planned directory needs; none (empty) when nothing in it changes. */
export function operationOf(plan: DirPlan): DirOperation {
  return { add: [...plan.add.values()], remove: [...plan.remove] };
}

export class TreeEdit {
  /** What the journal records: every entry put or deleted, in order. */
  readonly ops: JournalOp[] = [];
  private readonly dirs = new Map<string, DirPlan>();
  private readonly cache = new Map<string, SyncEntry | undefined>();
  /** Keys removed by this batch (and so everything below them). */
  private readonly removed = new Set<string>();

  constructor(
    private readonly lookup: (key: string) => Promise<SyncEntry | undefined>,
    /** How the folder's file system compares paths. */
    readonly keyOf: (path: string) => string,
  ) {}

  /** The entry stored at `key` before this batch. */
  async stored(key: string): Promise<SyncEntry | undefined> {
    if (!this.cache.has(key)) this.cache.set(key, await this.lookup(key));
    return this.cache.get(key);
  }

  /** What the tree will hold at `key` before this batch's additions: stored and not removed. */
  async existing(key: string): Promise<SyncEntry | undefined> {
    return this.isRemoved(key) ? undefined : this.stored(key);
  }

  remove(entry: SyncEntry): void {
    this.dirPlan(parentOf(entry.path)).remove.add(nameOf(entry.path));
    this.removed.add(entry.pathKey);
    this.ops.push({ op: 'delete_tree', pathKey: entry.pathKey, path: entry.path, kind: entry.kind });
  }

  /** Makes `dirPath` (and its ancestors) a folder: one already there stays, anything else is replaced by an empty one. */
  async ensureDir(dirPath: string): Promise<void> {
    if (dirPath === '') return;
    await this.ensureDir(parentOf(dirPath));
    const key = this.keyOf(dirPath);
    if (this.dirs.get(key)?.reset) return;
    const entry = await this.existing(key);
    if (entry?.kind === 'dir') return;
    if (entry) this.remove(entry);
    this.dirPlan(dirPath, true);
  }

  /** Puts a file with its CID at its path, replacing a folder or another spelling there. */
  async place(entry: SyncEntry): Promise<void> {
    const existingAt = await this.existing(entry.pathKey);
    if (existingAt && (existingAt.kind === 'dir' || existingAt.path !== entry.path)) this.remove(existingAt);
    await this.ensureDir(parentOf(entry.path));
    this.addTo(entry.path, entry.cid);
    this.ops.push({ op: 'put', ...entry });
  }

  /** Every planned directory and every ancestor of one, up to the root, deepest first. */
  rebuildOrder(): DirPlan[] {
    for (const plan of [...this.dirs.values()]) {
      for (let p = plan.path; p !== '';) {
        p = parentOf(p);
        this.dirPlan(p);
      }
    }
    return [...this.dirs.values()].sort((a, b) => depthOf(b.key) - depthOf(a.key));
  }

  /** A directory (not the root) rebuilt as `cid`: its parent takes it, and the journal records it. */
  rebuilt(plan: DirPlan, cid: string): void {
    this.addTo(plan.path, cid);
    this.ops.push({ op: 'put', pathKey: plan.key, path: plan.path, kind: 'dir', size: 0, mtimeMs: 0, ino: 0, cid });
  }

  private addTo(entryPath: string, cid: string): void {
    const name = nameOf(entryPath);
    this.dirPlan(parentOf(entryPath)).add.set(this.keyOf(name), { name, cid });
  }

  private isRemoved(key: string): boolean {
    for (let k = key; ; k = parentOf(k)) {
      if (this.removed.has(k)) return true;
      if (k === '') return false;
    }
  }

  private dirPlan(dirPath: string, reset = false): DirPlan {
    const key = this.keyOf(dirPath);
    let plan = this.dirs.get(key);
    if (!plan) {
      plan = { key, path: dirPath, reset: false, add: new Map(), remove: new Set() };
      this.dirs.set(key, plan);
    }
    if (reset) {
      plan.reset = true;
      plan.path = dirPath;
    }
    return plan;
  }
}
