import { createIgnoreRules, IGNORE_FILE, loadIgnoreFile, type IgnoreRules } from '../ignore-rules.js';

/**
 * A followed folder's ignore rules (ignore-rules.ts: the default junk, the folder's patterns, and the
 * `.pinfoldignore` files on its disk), asked path by path: each folder's ignore file is read the first time
 * a path below it is asked about, so an apply reads only those of the folders its changes are in. What is
 * ignored is never written, moved, deleted or listed.
 */
export interface FolderIgnore {
  isIgnored(rel: string, isDir: boolean): Promise<boolean>;
  /** The ignore file of folder `relDir` changed (the apply wrote one): read it again when next asked. */
  reload(relDir: string): void;
}

export function folderIgnore(root: string, init: { patterns: readonly string[]; caseInsensitive: boolean }): FolderIgnore {
  const rules: IgnoreRules = createIgnoreRules({ patterns: init.patterns, caseInsensitive: init.caseInsensitive });
  const loaded = new Map<string, Promise<boolean>>();
  const load = (relDir: string): Promise<boolean> => {
    let done = loaded.get(relDir);
    if (done === undefined) {
      done = loadIgnoreFile(rules, root, relDir);
      loaded.set(relDir, done);
    }
    return done;
  };
  return {
    async isIgnored(rel, isDir) {
      const segments = rel.split('/');
      for (let depth = 0; depth < segments.length; depth++) await load(segments.slice(0, depth).join('/'));
      return rules.isIgnored(rel, isDir);
    },
    reload(relDir) {
      loaded.delete(relDir);
    },
  };
}

export { IGNORE_FILE };
