import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { dataFolderPaths } from './data-folder.js';

export class DataFolderLockedError extends Error {
  override readonly name = 'DataFolderLockedError';
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
  ) {
    super(`another Pinfold server (pid ${holderPid}) is already using the data folder ${dataDir}; stop it first or pass --data with another folder`);
  }
}

export interface DataFolderLock {
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One server per data folder. `O_EXCL` creation makes the check and the claim one step; a lock left by
 * a process that died (kill -9, power loss) is taken over, since its pid no longer runs.
 */
export function acquireDataFolderLock(dataDir: string): DataFolderLock {
  const path = dataFolderPaths(dataDir).lock;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return {
        release() {
          try {
            if (readFileSync(path, 'utf8').trim() === String(process.pid)) unlinkSync(path);
          } catch {
            // already gone: nothing to release
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) throw new DataFolderLockedError(dataDir, holder);
      unlinkSync(path);
    }
  }
  throw new Error(`could not take the lock ${path}`);
}
