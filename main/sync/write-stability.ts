import { sameStat, type FileStat } from './coalescer.js';

/**
 * The watcher's stability rule, apart from the file system: a file seen written is reported only once
 * its size AND mtime (and inode) have held still for `stabilityMs` (chokidar's awaitWriteFinish checks
 * size only). The watcher feeds it what it sees (writes, and each poll's lstat) and a time; it answers
 * which files are still moving and which are ready to report. Pure: no timers, no I/O.
 */

export interface PendingWrite {
  /** `add` for a file not seen before (neither reported this session nor stored), else `change`. */
  readonly kind: 'add' | 'change';
  readonly stat: Readonly<Required<Pick<FileStat, 'size' | 'mtimeMs' | 'ino'>>>;
  /** When the file was last seen moving (ms). */
  readonly since: number;
}

/** What one poll's look at a pending file decides. */
export type StabilityVerdict =
  /** Changed since last seen: its stillness counts from now. */
  | 'moving'
  /** Unchanged, but not yet for `stabilityMs`. */
  | 'waiting'
  /** Unchanged for `stabilityMs`: no longer pending, report it. */
  | 'still';

export interface WriteStability {
  /**
   * A write seen at `rel`, with the file's stat now. `last` is the identity the file was last reported
   * or stored with (needed only for a file not pending yet): a write that changed nothing (a chmod, a
   * second look at a new folder) is none. Returns true when the file became pending by this write.
   */
  written(rel: string, stat: Required<Pick<FileStat, 'size' | 'mtimeMs' | 'ino'>>, now: number, last: FileStat | undefined): boolean;
  has(rel: string): boolean;
  /** The pending files as they are now, for one poll. */
  pendingNow(): Array<readonly [rel: string, write: PendingWrite]>;
  /** Whether `write` (from {@link pendingNow}) is still the pending write of `rel` (not dropped or replaced meanwhile). */
  isPending(rel: string, write: PendingWrite): boolean;
  /** A poll's look at a pending file: its stat now, at `now`. A `still` file is no longer pending. */
  look(rel: string, stat: Required<Pick<FileStat, 'size' | 'mtimeMs' | 'ino'>>, now: number): StabilityVerdict;
  /** Forgets `rel` (gone, a folder or a symlink in its place, unreadable). */
  drop(rel: string): void;
  /** Forgets every file under the folder `dir` (it went away). */
  dropUnder(dir: string): void;
  clear(): void;
  readonly size: number;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export function createWriteStability(stabilityMs: number): WriteStability {
  // Entries change in place, so a poll that took one before an await can tell whether it is still
  // the pending write of its file (dropped and seen again is another entry).
  const pending = new Map<string, Mutable<PendingWrite>>();
  const restart = (write: Mutable<PendingWrite>, stat: PendingWrite['stat'], now: number): void => {
    write.stat = { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino };
    write.since = now;
  };
  return {
    written(rel, stat, now, last) {
      const existing = pending.get(rel);
      if (existing) {
        if (!sameStat(stat, existing.stat)) restart(existing, stat, now);
        return false;
      }
      if (last !== undefined && sameStat(stat, last)) return false;
      pending.set(rel, { kind: last !== undefined ? 'change' : 'add', stat: { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino }, since: now });
      return true;
    },
    has: (rel) => pending.has(rel),
    pendingNow: () => [...pending],
    isPending: (rel, write) => pending.get(rel) === write,
    look(rel, stat, now) {
      const write = pending.get(rel);
      if (write === undefined) return 'waiting';
      if (!sameStat(stat, write.stat)) {
        restart(write, stat, now);
        return 'moving';
      }
      if (now - write.since < stabilityMs) return 'waiting';
      pending.delete(rel);
      return 'still';
    },
    drop: (rel) => void pending.delete(rel),
    dropUnder(dir) {
      for (const key of pending.keys()) if (key.startsWith(`${dir}/`)) pending.delete(key);
    },
    clear: () => pending.clear(),
    get size() {
      return pending.size;
    },
  };
}
