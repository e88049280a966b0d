import path from 'node:path';
import type { Clock } from '../base/clock.js';
import type { FileStat, RawEvent } from './coalescer.js';
import type { IgnoreRules } from './ignore-rules.js';
import type { Unreadable } from './scanner.js';
import { isWithin, relativeIn } from './watch-decisions.js';
import { createWriteStability, type WriteStability } from './write-stability.js';

/** What a watcher tells its owner (see WatcherInit in watcher.ts). */
export interface WatchHooks {
  onEvent: (event: RawEvent) => void;
  onUnreadable?: (entry: Unreadable) => void;
  /** A `.pinfoldignore` in `relDir` was created, changed or deleted; the rules already hold the new text. */
  onIgnoreFileChanged?: (relDir: string) => void;
  /** A folder appeared where a file was: scan `relDir` against the stored state (the file is gone). */
  onFolderAppeared?: (relDir: string) => void;
  /** The folder itself disappeared (unmounted drive, deleted): apply the unmounted-drive rule. */
  onRootGone?: () => void;
  onError?: (error: Error) => void;
  /**
   * The identity a file had before it was deleted (the stored state), to pair moves. Asked only for a
   * name this session has not seen; an event that needs it is told once it answers.
   */
  lookup?: (relPath: string) => Promise<FileStat | undefined>;
}

/**
 * One watch of one folder: what the watcher's units share, each field named for who changes it. The
 * units (stability-poller.ts, entry-inspector.ts, folder-sweeper.ts) read and change it; nothing
 * else holds state of the watch but their own timers.
 */
export class WatchSession {
  /** Set once by close: every unit stops reporting. */
  closed = false;
  /** Identity of files reported during this session, for move pairing before the state catches up. */
  readonly known = new Map<string, FileStat>();
  /**
   * Folders being watched ('' = the root): a name that vanished from one of these was a folder, and
   * chokidar reports it (unlinkDir); any other vanished name is reported as an unlinked file.
   */
  readonly dirs = new Set<string>();
  /** Files seen written, held until they stay still. */
  readonly pending: WriteStability;

  constructor(
    /** Absolute path of the folder. */
    readonly root: string,
    readonly rules: IgnoreRules,
    readonly clock: Clock,
    readonly hooks: WatchHooks,
    stabilityMs: number,
  ) {
    this.pending = createWriteStability(stabilityMs);
  }

  relOf(abs: string): string | undefined {
    return relativeIn(this.root, abs);
  }

  absOf(rel: string): string {
    return path.join(this.root, ...rel.split('/'));
  }

  report(entry: Unreadable): void {
    this.hooks.onUnreadable?.(entry);
  }

  emit(event: Omit<RawEvent, 'at'>): void {
    this.hooks.onEvent({ ...event, at: this.clock.nowMs() });
  }

  /** The folder `rel` went away: forget it, everything below it, and the ignore files in it. */
  forgetFolder(rel: string): void {
    for (const dir of this.dirs) if (isWithin(rel, dir)) this.dirs.delete(dir);
    this.pending.dropUnder(rel);
    for (const dir of this.rules.ignoreFileDirs()) if (isWithin(rel, dir)) this.rules.setIgnoreFile(dir, undefined);
  }
}
