import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Runs a command with its output on a terminal, as a person at one sees it: util-linux `script` gives
 * it a pseudo-terminal (`process.stdout.isTTY` is true inside) and copies what it prints to our pipe.
 * Linux only (macOS's `script` takes other arguments; Windows has none): tests that use it run on Linux.
 */

/** One word of a POSIX shell command line. */
function shellWord(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `script` found on this process's PATH, so a test may give the command a PATH of its own (one without a browser opener). */
function scriptPath(): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'script');
    if (dir !== '' && existsSync(candidate)) return candidate;
  }
  throw new Error('util-linux `script` is not on PATH (the terminal tests run on Linux)');
}

/** The command and arguments that run `argv` on a terminal; `--return`: script exits with the command's code. */
export function onTerminal(argv: readonly string[]): { command: string; args: string[] } {
  return { command: scriptPath(), args: ['--quiet', '--return', '--flush', '--command', argv.map(shellWord).join(' '), '/dev/null'] };
}

/** A terminal ends lines with CR LF and may colour text: back to what the program wrote. */
export function terminalText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\r\n/g, '\n').replace(/\x1b\[[0-9;]*m/g, '');
}
