import { statSync, rmSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * A folder of this process's own that only this user can enter (0700), for files that hold a secret for
 * a few minutes (the sign-in pages a browser is pointed at, as Jupyter's `jpserver-*-open.html`). It
 * sits in the user's runtime folder ($XDG_RUNTIME_DIR: per user, 0700, in memory, emptied at logout)
 * when there is a usable one, else in the OS temp folder; it is made on first use with a name nobody can
 * guess, and close() removes it with everything in it.
 */
export interface PrivateFolder {
  /** Writes a new file (0600; never over an existing file or through a link) and answers its path. */
  write(name: string, content: string): Promise<string>;
  /** Removes a file written here; a file already gone is fine. */
  remove(path: string): void;
  /** Removes the folder and everything in it. */
  close(): void;
}

/**
 * Where the folder goes: $XDG_RUNTIME_DIR when it is an absolute path to a folder of this user that
 * nobody else may enter (the XDG rules; a stale or borrowed value is not trusted), else the temp folder.
 */
export function privateFolderParent(env: NodeJS.ProcessEnv): string {
  const runtime = env.XDG_RUNTIME_DIR;
  // Windows: the temp folder is the user's own (%LOCALAPPDATA%\Temp); modes say nothing there.
  if (process.platform !== 'win32' && runtime !== undefined && isAbsolute(runtime)) {
    try {
      const stats = statSync(runtime);
      const mine = process.getuid === undefined || stats.uid === process.getuid();
      if (stats.isDirectory() && mine && (stats.mode & 0o077) === 0) return runtime;
    } catch {
      // Not there (a session that ended): the temp folder will do.
    }
  }
  return tmpdir();
}

export function createPrivateFolder(init: { env: NodeJS.ProcessEnv; prefix: string }): PrivateFolder {
  const closedError = () => new Error('the private folder is closed');
  let pending: Promise<string> | null = null;
  let made: string | null = null;
  const written = new Set<string>();
  let closed = false;
  // mkdtemp makes the folder 0700 under a random name, failing rather than reusing one that exists.
  const folderPath = () =>
    (pending ??= mkdtemp(join(privateFolderParent(init.env), init.prefix)).then((dir) => {
      if (closed) {
        rmSync(dir, { recursive: true, force: true });
        throw closedError();
      }
      made = dir;
      return dir;
    }));

  const writeIn = async (dir: string, name: string, content: string): Promise<string> => {
    const path = join(dir, name);
    // 'wx': O_CREAT|O_EXCL, so an existing file or a planted link is an error, never written through.
    await writeFile(path, content, { mode: 0o600, flag: 'wx' });
    return path;
  };

  return {
    async write(name, content) {
      if (closed) throw closedError();
      if (!/^[\w.-]+$/.test(name) || name === '.' || name === '..') throw new Error(`not a plain file name: ${name}`);
      let path: string;
      try {
        path = await writeIn(await folderPath(), name, content);
      } catch (error) {
        // The folder went away under us (a cleaner of the temp folder, the runtime folder at logout): a new one.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || closed) throw error;
        pending = null;
        made = null;
        path = await writeIn(await folderPath(), name, content);
      }
      if (closed) {
        rmSync(path, { force: true });
        throw closedError();
      }
      written.add(path);
      return path;
    },
    remove(path) {
      if (!written.delete(path)) return;
      rmSync(path, { force: true });
    },
    close() {
      closed = true;
      written.clear();
      if (made !== null) rmSync(made, { recursive: true, force: true });
      made = null;
      pending = null;
    },
  };
}
