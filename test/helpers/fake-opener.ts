import { access, chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { until } from './until.js';

/**
 * A stand-in for the browser opener (`xdg-open`), put first on PATH: what it records is what any local
 * user could have read while it ran. It writes down its arguments, the command line of every process
 * it can see (/proc/<pid>/cmdline, as `ps` shows them), and, when its argument is a file, that file's
 * and folder's modes and its content; then it exits, opening nothing. Linux only (/proc).
 */
export interface FakeOpener {
  /** Put this folder first on PATH. */
  readonly binDir: string;
  /** The environment to run the program under. */
  env(): NodeJS.ProcessEnv;
  /** Resolves with what the opener saw once it has run; rejects after the deadline. */
  ran(deadlineMs?: number): Promise<OpenerRecord>;
}

export interface OpenerRecord {
  args: string[];
  /** One line per process. */
  commandLines: string[];
  /** Octal modes as `stat -c %a` prints them ('' when the argument is not a file). */
  fileMode: string;
  folderMode: string;
  page: string;
}

const SCRIPT = `#!/bin/sh
out="$PINFOLD_FAKE_OPENER_OUT"
printf '%s\\n' "$@" > "$out/args"
for cmdline in /proc/[0-9]*/cmdline; do
  tr '\\000' ' ' < "$cmdline" 2>/dev/null
  echo
done > "$out/command-lines"
if [ -f "$1" ]; then
  stat -c '%a' "$1" > "$out/file-mode"
  stat -c '%a' "$(dirname "$1")" > "$out/folder-mode"
  cat "$1" > "$out/page"
fi
touch "$out/done"
`;

export async function fakeOpener(dir: string, name = 'xdg-open'): Promise<FakeOpener> {
  const binDir = join(dir, 'bin');
  const outDir = join(dir, 'out');
  await mkdir(binDir, { recursive: true });
  await mkdir(outDir, { recursive: true });
  await writeFile(join(binDir, name), SCRIPT);
  await chmod(join(binDir, name), 0o755);
  const text = (file: string) => readFile(join(outDir, file), 'utf8').catch(() => '');
  return {
    binDir,
    env: () => ({ PATH: `${binDir}:${process.env.PATH ?? ''}`, PINFOLD_FAKE_OPENER_OUT: outDir }),
    async ran(deadlineMs = 30_000) {
      const done = () => access(join(outDir, 'done')).then(() => true);
      await until('the browser opener to run', done, deadlineMs, 50);
      return {
        args: (await text('args')).split('\n').filter((line) => line !== ''),
        commandLines: (await text('command-lines')).split('\n'),
        fileMode: (await text('file-mode')).trim(),
        folderMode: (await text('folder-mode')).trim(),
        page: await text('page'),
      };
    },
  };
}
