import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A new, empty folder under the system's temporary folder; the test removes it. */
export async function makeTempDir(prefix = 'pinfold-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** A temporary folder and the function that removes it. */
export async function tempDir(prefix = 'pinfold-test-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await makeTempDir(prefix);
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Temporary folders a test file makes as it goes (under `prefix`, or one of their own), all removed by `removeAll()` (in its afterAll or afterEach). */
export function tempDirs(prefix = 'pinfold-test-'): { make(prefix?: string): Promise<string>; removeAll(): Promise<void> } {
  const made: string[] = [];
  return {
    async make(own = prefix) {
      const dir = await makeTempDir(own);
      made.push(dir);
      return dir;
    },
    async removeAll() {
      for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
    },
  };
}
