/**
 * The `pinfold` command's flags in three places that must agree (issue 22, item 8): what the parser accepts
 * (the declarations in command-specs.ts, which the dispatcher checks every command line against), what
 * `pinfold --help` prints, and the command table of docs/api.md (the README's until issue 25, part 6).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from '../../../main/cli/args.js';
import { COMMANDS, commandLines, GLOBAL_FLAGS, switchNames, type CommandSpec } from '../../../main/cli/command-specs.js';
import { runCommand } from '../../../main/cli/run.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const flagsIn = (text: string): string[] => [...new Set([...text.matchAll(/--([a-z][a-z0-9-]*)/g)].map((match) => match[1] as string))].sort();
const namesOf = (spec: CommandSpec): string[] => spec.flags.map((flag) => flag.name).sort();
const globalNames = GLOBAL_FLAGS.map((flag) => flag.name);

/** Where the command table is documented, and the heading of its section. */
const TABLE_DOCUMENT = 'docs/api.md';
const TABLE_HEADING = '## The `pinfold` command\n';

/** The documented command table: each row's first cell, without backticks and with `\|` as `|`. */
function documentedRows(): string[] {
  const document = readFileSync(`${repoRoot}/${TABLE_DOCUMENT}`, 'utf8');
  const heading = document.indexOf(TABLE_HEADING);
  if (heading === -1) throw new Error(`${TABLE_DOCUMENT} has no section ${TABLE_HEADING.trim()}`);
  const section = document.slice(heading);
  const table = section.slice(section.indexOf('| command |'));
  const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
  return rows.map((row) => {
    // A cell ends at the first `|` that is not written `\|`.
    const cell = /^\| `((?:[^`\\]|\\\|)+)` \|/.exec(row);
    if (!cell) throw new Error(`a ${TABLE_DOCUMENT} command row without its command in backticks: ${row}`);
    return (cell[1] as string).replace(/\\\|/g, '|');
  });
}

/** `pinfold --help` as the CLI prints it, cut into one entry per command (an entry starts two spaces in). */
function helpEntries(): { text: string; entries: string[] } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'main/cli/main.ts', '--help'], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
  expect(result.stderr).toBe('');
  const entries: string[] = [];
  for (const line of result.stdout.split('\n')) {
    if (/^ {2}\S/.test(line)) entries.push(line);
    else if (/^ {3,}\S/.test(line) && entries.length > 0) entries[entries.length - 1] += `\n${line}`;
  }
  return { text: result.stdout, entries };
}

/** The row or entry that documents `spec`: it starts with the command's words, and no longer command's. */
function documenting(spec: CommandSpec, texts: readonly string[], prefix: string): string[] {
  const starts = (text: string, command: string) => text.startsWith(`${prefix}${command} `) || text === `${prefix}${command}`;
  return texts.filter(
    (text) => starts(text, spec.command) && !COMMANDS.some((other) => other.command.length > spec.command.length && starts(text, other.command)),
  );
}

describe('pinfold --help, the documented command table and the flags the parser accepts', () => {
  const rows = documentedRows();
  const help = helpEntries();

  it('the table documents each command once, and nothing the CLI does not have', () => {
    for (const spec of COMMANDS) expect(documenting(spec, rows, 'pinfold '), spec.command).toHaveLength(1);
    for (const row of rows)
      expect(
        COMMANDS.filter((spec) => documenting(spec, [row], 'pinfold ').length === 1),
        row,
      ).toHaveLength(1);
    expect(readFileSync(`${repoRoot}/${TABLE_DOCUMENT}`, 'utf8').replace(/\s+/g, ' ')).toContain('Every command takes `--data DIR`');
  });

  it('every flag in a documented row is in the help of that command, and the row has every flag the command accepts', () => {
    for (const spec of COMMANDS) {
      const [row] = documenting(spec, rows, 'pinfold ');
      const [entry] = documenting(spec, help.entries, '  ');
      expect(entry, `the help has no entry for ${spec.command}`).toBeDefined();
      const entryFlags = flagsIn(entry as string);
      for (const flag of flagsIn(row as string)) expect(entryFlags, `${spec.command}: --${flag} is in ${TABLE_DOCUMENT} but not in the help`).toContain(flag);
      expect(flagsIn(row as string), `${spec.command} in ${TABLE_DOCUMENT}`).toEqual(namesOf(spec));
    }
  });

  it('the help shows every flag each command accepts, and none it does not', () => {
    for (const spec of COMMANDS) {
      const [entry] = documenting(spec, help.entries, '  ');
      expect(flagsIn(entry as string), `${spec.command} in the help`).toEqual(namesOf(spec));
    }
    for (const name of globalNames.filter((flag) => flag !== 'help')) expect(help.text).toContain(`--${name} DIR`);
  });

  it('the dispatcher checks every command line against the declarations: a flag not declared is refused, before anything runs', async () => {
    for (const spec of COMMANDS) {
      for (const words of commandLines(spec)) {
        const line = [...words, '--not-declared', 'x'];
        await expect(runCommand(line), line.join(' ')).rejects.toThrow(new UsageError(`${words.join(' ')} does not take --not-declared`));
      }
    }
  });

  it('the switches are the declared flags without a value: what follows one is an argument, what follows any other its value', () => {
    const switches = switchNames();
    for (const spec of COMMANDS) {
      for (const flag of spec.flags) {
        const parsed = parseArgs([...(commandLines(spec)[0] as string[]), `--${flag.name}`, 'next']);
        expect(switches.has(flag.name)).toBe(flag.value === undefined);
        expect(parsed.flags.get(flag.name), `--${flag.name}`).toEqual([flag.value === undefined ? 'true' : 'next']);
        expect(parsed.positional.includes('next')).toBe(flag.value === undefined);
      }
    }
  });

  it('a flag declared a switch in one command and with a value in another is refused at load', () => {
    const clash: CommandSpec[] = [
      { command: 'one', flags: [{ name: 'keep' }], summary: '' },
      { command: 'two', flags: [{ name: 'keep', value: 'POLICY' }], summary: '' },
    ];
    expect(() => switchNames(clash)).toThrow('--keep is declared both as a switch and with a value');
  });

  it('--help answers 0 with the help; no command at all is a usage error (2)', async () => {
    let printed = '';
    expect(await runCommand(['--help'], (text) => void (printed += text))).toBe(0);
    expect(printed).toBe(help.text);
    expect(await runCommand([], () => undefined)).toBe(2);
  });
});
