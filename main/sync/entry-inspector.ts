import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { isIgnoreFile, loadIgnoreFile } from './ignore-rules.js';
import { describeFsError } from './scanner.js';
import type { StabilityPoller } from './stability-poller.js';
import { ignoreFileDir, ignoreFileTouched, lookStep, seenKindOf } from './watch-decisions.js';
import type { WatchSession } from './watch-session.js';

/**
 * What a folder's fs.watch event about one of its entries stands for, told by one lstat of the entry:
 * a file written (held by the stability check), deleted, replaced by a symlink, a folder or something
 * else, or an ignore file changed. One lstat at a time per name; events arriving meanwhile ask for
 * one more look after it.
 */
export class EntryInspector {
  /** Names being looked at; true: another event came meanwhile, look again. */
  private readonly looking = new Map<string, boolean>();

  constructor(
    private readonly session: WatchSession,
    private readonly poller: StabilityPoller,
    /** Starts watching a folder (chokidar's add). */
    private readonly watchFolder: (abs: string) => void,
  ) {}

  inspect(rel: string): void {
    const { session } = this;
    if (session.closed || (!isIgnoreFile(rel) && session.rules.isIgnored(rel, false))) return;
    if (this.looking.has(rel)) {
      this.looking.set(rel, true);
      return;
    }
    this.looking.set(rel, false);
    void this.look(rel).finally(() => {
      const again = this.looking.get(rel) === true;
      this.looking.delete(rel);
      if (again) this.inspect(rel);
    });
  }

  private async look(rel: string): Promise<void> {
    const { session } = this;
    const wasDir = session.dirs.has(rel);
    let info: Stats | undefined;
    try {
      info = await lstat(session.absOf(rel));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        session.report({ path: rel, reason: describeFsError(error) });
        return;
      }
    }
    if (session.closed) return;
    const seen = seenKindOf(info);
    if (ignoreFileTouched(rel, seen)) void this.reloadIgnoreFile(rel);
    switch (lookStep(seen, wasDir, session.dirs.has(rel))) {
      case 'unlink':
        await this.gone(rel, true);
        break;
      case 'unlink-if-known':
        await this.gone(rel, false);
        break;
      case 'forget':
        session.pending.drop(rel);
        break;
      case 'not-regular':
        session.pending.drop(rel);
        session.report({ path: rel, reason: 'not a regular file' });
        break;
      case 'written':
        if (info) await this.written(rel, info);
        break;
      case 'nothing':
        break;
    }
  }

  /** A file seen written (or found in a new folder): held until it stays still, see StabilityPoller. */
  private async written(rel: string, info: Stats): Promise<void> {
    const { session } = this;
    // The identity it was last reported or stored with is only needed for a file not pending yet.
    const last = session.pending.has(rel) ? undefined : (session.known.get(rel) ?? (await session.hooks.lookup?.(rel)));
    if (session.closed) return;
    if (session.pending.written(rel, info, session.clock.nowMs(), last)) this.poller.schedule();
  }

  private async gone(rel: string, evenIfUnknown: boolean): Promise<void> {
    const { session } = this;
    session.pending.drop(rel);
    const stat = session.known.get(rel) ?? (await session.hooks.lookup?.(rel));
    if (session.closed) return;
    session.known.delete(rel);
    // Every other vanished name is reported, even one this session never saw written: a file the
    // scan found may be in the batch being built, and must not outlive its deletion.
    if (!evenIfUnknown && stat === undefined) return;
    session.emit({ kind: 'unlink', path: rel, ...stat });
  }

  private async reloadIgnoreFile(rel: string): Promise<void> {
    const { session } = this;
    const dir = ignoreFileDir(rel);
    if (!(await loadIgnoreFile(session.rules, session.root, dir))) session.report({ path: rel, reason: 'ignore file cannot be read' });
    if (session.closed) return;
    // Folders the old rules hid were never watched: re-reading the folder starts watching them.
    this.watchFolder(session.absOf(dir));
    session.hooks.onIgnoreFileChanged?.(dir);
  }
}
