import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Every file under a folder with its bytes, by relative path: two snapshots compare equal when nothing
 * in the folder was written, created or removed. SQLite's `-shm` (the WAL's index in shared memory, no
 * data of its own) and an empty `-wal` are left out: a read-only connection may leave them.
 */
export function folderSnapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (path: string): void => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (entry.isFile()) {
        const bytes = readFileSync(full);
        if (entry.name.endsWith('-shm') || (bytes.length === 0 && entry.name.endsWith('-wal'))) continue;
        out[relative(dir, full)] = bytes.toString('base64');
      }
    }
  };
  visit(dir);
  return out;
}
