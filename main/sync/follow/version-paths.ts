import { isAppError } from '../../base/errors.js';
import { validateSegments } from '../../content/read/index.js';
import { windowsNameProblem } from '../windows-names.js';
import { FollowApplyError } from './follow-errors.js';
import type { VersionTree } from './version-tree.js';

/**
 * The paths a diff names (content/directory/diff-trees.ts: files by their path, an empty folder as `path/`),
 * sorted into what the apply writes and what it removes, by what the new version has at each.
 */
export interface VersionPaths {
  /** The version has a file there. */
  writeFiles: string[];
  /** The version has an empty folder there. */
  writeFolders: string[];
  /** The version has no file there (nothing, or a folder: a file turned into one). */
  removeFiles: string[];
  /** An empty folder the version no longer has. */
  removeFolders: string[];
}

export async function splitVersionPaths(to: VersionTree, changed: readonly string[]): Promise<VersionPaths> {
  const paths: VersionPaths = { writeFiles: [], writeFolders: [], removeFiles: [], removeFolders: [] };
  for (const path of changed) {
    const folder = path.endsWith('/');
    const rel = folder ? path.slice(0, -1) : path;
    const kind = (await to.nodeAt(rel))?.kind;
    if (folder) (kind === 'dir' ? paths.writeFolders : paths.removeFolders).push(rel);
    else (kind === 'file' ? paths.writeFiles : paths.removeFiles).push(rel);
  }
  return paths;
}

/**
 * Refuses, before anything is written, a version with a path that could leave the folder (`..`, an empty
 * or `/`-holding name, a NUL), wherever the diff names it; and, when `windowsNames`, one it would write under
 * a name Windows cannot hold.
 */
export function checkVersionPaths(paths: VersionPaths, windowsNames: boolean): void {
  const refuse = (rel: string, problem: string): never => {
    throw new FollowApplyError('bad-version', `the version's ${JSON.stringify(rel)} ${problem}; nothing was written`);
  };
  const all = [...paths.writeFiles, ...paths.writeFolders, ...paths.removeFiles, ...paths.removeFolders];
  for (const rel of all) {
    try {
      validateSegments(rel.split('/'));
    } catch (error) {
      refuse(rel, `cannot be written here (${isAppError(error) ? error.message : 'not a name'})`);
    }
  }
  if (!windowsNames) return;
  for (const rel of [...paths.writeFiles, ...paths.writeFolders]) {
    for (const name of rel.split('/')) {
      const problem = windowsNameProblem(name);
      if (problem !== undefined) refuse(rel, `has the name ${JSON.stringify(name)}: it ${problem}`);
    }
  }
}
