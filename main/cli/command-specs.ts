import { CID_PROFILES } from '../base/config.js';

/**
 * Every `pinfold` command and the flags it takes, declared once: the parser checks a command line against
 * these (args.ts: which flags are switches, which a command accepts), the help is rendered from them
 * (usage.ts), and test/unit/cli/command-table.test.ts holds them against the command table of docs/api.md. A
 * flag added here is accepted, shown in `--help` and required in docs/api.md at once; one added anywhere
 * else is refused as unknown.
 */

export interface FlagSpec {
  readonly name: string;
  /** What its value is, as the help shows it (`N`, `PATH`); absent for a switch (`--json`). */
  readonly value?: string;
  /** May be given more than once (`--allow-origin A --allow-origin B`). */
  readonly repeatable?: boolean;
  /** Must be given: shown without brackets. */
  readonly required?: boolean;
}

export interface CommandSpec {
  /** The words after `pinfold`; subcommands that share everything are alternatives: `sync pause|resume|rm`. */
  readonly command: string;
  /** Its positional arguments as the help shows them, e.g. `<id> <root> <path>`. */
  readonly operands?: string;
  readonly flags: readonly FlagSpec[];
  /** What it does, one paragraph (the help wraps it). */
  readonly summary: string;
}

/** Taken by every command. */
export const GLOBAL_FLAGS: readonly FlagSpec[] = [{ name: 'data', value: 'DIR' }, { name: 'help' }];

const DATABASE: FlagSpec = { name: 'db', value: 'postgres://USER@HOST/DB' };

export const COMMANDS: readonly CommandSpec[] = [
  {
    command: 'serve',
    flags: [
      { name: 'port', value: 'N' },
      { name: 'desktop-port', value: 'N' },
      { name: 'host', value: 'H' },
      { name: 'gc-interval', value: 'S' },
      { name: 'gc-grace', value: 'S' },
      { name: 'ts-window', value: 'S' },
      { name: 'dns-resolver', value: 'HOST:PORT' },
      { name: 'public-gateway' },
      { name: 'allow-origin', value: 'ORIGIN', repeatable: true },
      { name: 'pin-timeout', value: 'S' },
      { name: 'cid-profile', value: CID_PROFILES.join('|') },
      { name: 'keychain' },
      DATABASE,
      { name: 'blocks', value: 's3://BUCKET/PREFIX?endpoint=URL&region=R' },
      { name: 'master-key-file', value: 'PATH' },
      { name: 'fetch-from', value: 'URL', repeatable: true },
      { name: 'routing', value: 'URL', repeatable: true },
      { name: 'offline' },
    ],
    summary:
      "run the service (default port 5080); --port, --gc-interval, --gc-grace, --public-gateway, --cid-profile, --fetch-from, --routing and --offline win for this run over the data folder's settings.json (docs/settings.md); " +
      "--desktop-port is the desktop app's: the port it chose for its service, which pins nothing; --cid-profile picks how new content is laid out (unixfs-v0-2015: " +
      "Kubo's legacy CIDv0 defaults, as gw3 uses); --keychain keeps a new data folder's master key and owner key " +
      'in the OS keychain; --db keeps the metadata in PostgreSQL (password: PGPASSWORD or ~/.pgpass; no sync ' +
      'folders in that mode); --blocks (needs --db) keeps the blocks in an S3-compatible bucket; --master-key-file ' +
      'names the master key the instances on one database share; --pin-timeout is how long a pin waits for its ' +
      'blocks before it fails (default 600); --fetch-from (trustless gateways) and --routing (Delegated Routing V1 ' +
      "endpoints) say where pins' missing blocks come from, for this run, over the data folder's settings; " +
      '--offline sends nothing out',
  },
  { command: 'account list', flags: [DATABASE], summary: 'list accounts (uuid, plan, partner flag, balance)' },
  { command: 'account partner', operands: '<uuid> on|off', flags: [DATABASE], summary: 'mark an account as a qualified partner or not' },
  {
    command: 'account credit',
    operands: '<uuid> <amount>',
    flags: [DATABASE],
    summary: "add to an account's balance, e.g. 25.00 (the account commands take --db in the PostgreSQL mode, as serve does)",
  },
  {
    command: 'gc',
    flags: [{ name: 'gc-grace', value: 'S' }],
    summary: 'one garbage-collection cycle (asks the running server, if any)',
  },
  {
    command: 'open',
    flags: [{ name: 'no-browser' }],
    summary:
      "open the running service's window in the browser, signed in by a one-time sign-in page (from a terminal); else, or with --no-browser, print a one-time sign-in link",
  },
  {
    command: 'sync add',
    operands: '<path>',
    flags: [{ name: 'no-ipns' }, { name: 'name', value: 'NAME' }, { name: 'ignore', value: 'PATTERN', repeatable: true }, { name: 'keep', value: 'POLICY' }],
    summary: 'keep a folder synced to a pinned root (and an IPNS name: a new one, or --name one of yours)',
  },
  {
    command: 'sync follow',
    operands: '<name> <folder>',
    flags: [{ name: 'from', value: 'URL', repeatable: true }],
    summary:
      "mirror another machine's IPNS name (k51…, /ipns/<name> or a gateway URL ending in /ipns/<name>) into a folder, read-only, each block verified; --from adds gateways to ask; local changes are never overwritten",
  },
  {
    command: 'sync discard',
    operands: '<id>',
    flags: [],
    summary: "a followed folder's local changes moved to the trash and the followed version written back",
  },
  {
    command: 'sync list',
    flags: [{ name: 'json' }],
    summary: 'sync and followed folders with their mode, state and progress (a followed one: its source and local changes)',
  },
  { command: 'sync pause|resume|rm', operands: '<id>', flags: [], summary: 'pause, resume or stop syncing a folder (rm unpins nothing)' },
  {
    command: 'sync publish',
    operands: '<id>',
    flags: [{ name: 'force' }],
    summary: "publish the folder's version to its name now; --force over a newer record of the name seen elsewhere (a conflict)",
  },
  { command: 'sync versions', operands: '<id>', flags: [{ name: 'json' }], summary: "the folder's kept versions, newest first" },
  { command: 'sync diff', operands: '<id> <from> <to>', flags: [], summary: 'what changed between two versions (their roots)' },
  { command: 'sync keep', operands: '<id> <policy>', flags: [], summary: 'how much history to keep: all, none or tiers like 24h:all,30d:1d,1y:1w' },
  {
    command: 'sync restore',
    operands: '<id> <root> <path>',
    flags: [{ name: 'to', value: 'DIR' }, { name: 'overwrite' }],
    summary:
      "a file or folder of a version back on disk (path / for the whole folder); different local content is kept, the version's copy written beside it unless --overwrite",
  },
  {
    command: 'secrets where',
    flags: [],
    summary: 'where the data folder keeps its master key and owner key (and the key secrets the desktop app keeps)',
  },
  {
    command: 'secrets move',
    flags: [{ name: 'to', value: 'keychain|file', required: true }],
    summary: 'move them all to the OS keychain or to files in the data folder (stop the server or the desktop app first)',
  },
];

/** The command words of a spec, one list per alternative: `sync pause|resume|rm` is three. */
export function commandLines(spec: CommandSpec): string[][] {
  const [group, alternatives] = spec.command.split(' ') as [string, string | undefined];
  return alternatives === undefined ? [[group]] : alternatives.split('|').map((sub) => [group, sub]);
}

/** Every flag a command accepts, its own and the global ones. */
export function acceptedFlags(spec: CommandSpec): readonly FlagSpec[] {
  return [...GLOBAL_FLAGS, ...spec.flags];
}

/**
 * The flags that take no value, over every command: the parser must know them before it knows the command
 * (`--json x` is a switch and an argument, `--keep x` a flag and its value), so a name is a switch everywhere
 * or nowhere (checked here, at load).
 */
export function switchNames(commands: readonly CommandSpec[] = COMMANDS): ReadonlySet<string> {
  const kinds = new Map<string, boolean>();
  for (const flag of [...GLOBAL_FLAGS, ...commands.flatMap((spec) => spec.flags)]) {
    const isSwitch = flag.value === undefined;
    if (kinds.get(flag.name) === !isSwitch) throw new Error(`--${flag.name} is declared both as a switch and with a value`);
    kinds.set(flag.name, isSwitch);
  }
  return new Set([...kinds].filter(([, isSwitch]) => isSwitch).map(([name]) => name));
}
