import { defaultDataDir } from '../base/config.js';
import { COMMANDS, type CommandSpec, type FlagSpec } from './command-specs.js';

/** Columns of the help: commands from 2, what they do from 35, nothing past 100. */
const INDENT = 2;
const SUMMARY_COLUMN = 35;
const WIDTH = 100;

/** A flag as the help and docs/api.md write it: `[--port N]`, `[--allow-origin ORIGIN]...`, `--to keychain|file`. */
export function flagSynopsis(flag: FlagSpec): string {
  const text = flag.value === undefined ? `--${flag.name}` : `--${flag.name} ${flag.value}`;
  const shown = flag.required === true ? text : `[${text}]`;
  return flag.repeatable === true ? `${shown}...` : shown;
}

/** The pieces of a synopsis, each kept on one line of the help: the command, its operands, each flag. */
function synopsisParts(spec: CommandSpec): string[] {
  return [spec.command, spec.operands, ...spec.flags.map(flagSynopsis)].filter((part): part is string => part !== undefined && part !== '');
}

/** `sync restore <id> <root> <path> [--to DIR] [--overwrite]`: the command, its operands and its own flags. */
export function commandSynopsis(spec: CommandSpec): string {
  return synopsisParts(spec).join(' ');
}

/** Words into lines of at most `width` characters, the first after `first`, the rest after `indent` spaces. */
function wrap(words: readonly string[], first: string, indent: number, width: number): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of words) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = ' '.repeat(indent);
      empty = true;
    }
    line += empty ? word : ` ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines;
}

/** One command in the help: its synopsis (continued under its first word), then what it does from the summary column. */
export function commandHelp(spec: CommandSpec): string {
  const [command = '', ...rest] = synopsisParts(spec);
  const word = command.split(' ')[0] as string;
  const synopsis = wrap(rest, `${' '.repeat(INDENT)}${command} `, INDENT + word.length + 1, WIDTH);
  const summaryWords = spec.summary.split(' ');
  const last = synopsis[synopsis.length - 1] as string;
  if (last.length + 2 <= SUMMARY_COLUMN) {
    const summary = wrap(summaryWords, last.padEnd(SUMMARY_COLUMN), SUMMARY_COLUMN, WIDTH);
    return [...synopsis.slice(0, -1), ...summary].join('\n');
  }
  return [...synopsis, ...wrap(summaryWords, ' '.repeat(SUMMARY_COLUMN), SUMMARY_COLUMN, WIDTH)].join('\n');
}

/** What `pinfold --help` prints (and a usage error after its message). */
export function usageText(commands: readonly CommandSpec[] = COMMANDS, dataDir: string = defaultDataDir()): string {
  return [
    'Usage: pinfold <command> [--data DIR]',
    '',
    ...commands.map(commandHelp),
    '',
    ...wrap(`Every command takes --data DIR: the data folder (default ${dataDir}), shared with the desktop app.`.split(' '), '', 0, WIDTH),
  ].join('\n');
}
