import { parsePostgresUrl, parseS3Url } from '../base/backend-urls.js';
import { CID_PROFILES, DEFAULTS, defaultConfig, defaultDataDir, MAX_TIMER_SECONDS, type CidProfileName, type ServiceConfig } from '../base/config.js';
import { BadInputError } from '../base/errors.js';
import { parseEndpointList } from '../network/endpoints.js';
import { acceptedFlags, commandLines, COMMANDS, switchNames, type CommandSpec } from './command-specs.js';

/** Thrown for a command line that cannot be understood; the CLI prints it with the usage. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface ParsedArgs {
  positional: string[];
  flags: Map<string, string[]>;
}

/** The switches of every command (command-specs.ts): `--json` takes no value, so what follows it is an argument. */
const SWITCHES = switchNames();

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    let value: string;
    if (eq !== -1) value = arg.slice(eq + 1);
    else if (SWITCHES.has(name)) value = 'true';
    else {
      const next = argv[i + 1];
      if (next === undefined) throw new UsageError(`--${name} needs a value`);
      value = next;
      i++;
    }
    flags.set(name, [...(flags.get(name) ?? []), value]);
  }
  return { positional, flags };
}

/**
 * The declared command a command line names (`sync` and `add` for `sync add`), from the words before its
 * arguments; a usage error naming what is unknown.
 */
export function commandSpecOf(positional: readonly string[], commands: readonly CommandSpec[] = COMMANDS): CommandSpec {
  const [group, sub] = positional;
  const found = (spec: CommandSpec) => commandLines(spec).some((words) => words[0] === group && (words.length === 1 || words[1] === sub));
  const spec = commands.find(found);
  if (spec !== undefined) return spec;
  if (group !== undefined && commands.some((candidate) => commandLines(candidate).some((words) => words[0] === group && words.length > 1)))
    throw new UsageError(`unknown ${group} command ${sub ?? ''}`.trim());
  throw new UsageError(`unknown command ${group ?? ''}`.trim());
}

/** Refuses any flag the command does not declare (a typo must not be ignored), before anything is done. */
export function checkFlags(args: ParsedArgs, spec: CommandSpec, words: string = spec.command): void {
  const accepted = new Set(acceptedFlags(spec).map((flag) => flag.name));
  for (const name of args.flags.keys()) if (!accepted.has(name)) throw new UsageError(`${words} does not take --${name}`);
}

/** The data folder a command works on: `--data DIR`, else the one the desktop app shares. */
export function dataDirFlag(args: ParsedArgs): string {
  return args.flags.get('data')?.[0] ?? defaultDataDir();
}

/** A flag given at most once (undefined when absent). */
export function single(args: ParsedArgs, name: string): string | undefined {
  const values = args.flags.get(name);
  if (!values) return undefined;
  if (values.length > 1) throw new UsageError(`--${name} given more than once`);
  return values[0];
}

/** A number of seconds given with `--name` (undefined when absent). */
function givenSeconds(args: ParsedArgs, name: string, min = 0): number | undefined {
  const text = single(args, name);
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > MAX_TIMER_SECONDS)
    throw new UsageError(`--${name} must be a whole number of seconds from ${min} to ${MAX_TIMER_SECONDS}`);
  return Number(text);
}

function seconds(args: ParsedArgs, name: string, fallback: number, min = 0): number {
  return givenSeconds(args, name, min) ?? fallback;
}

/** A port given with `--name` (undefined when absent). */
function givenPort(args: ParsedArgs, name: string): number | undefined {
  const text = single(args, name);
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) > 65535) throw new UsageError(`--${name} must be 0..65535`);
  return Number(text);
}

/** A switch that may also be given `=true` or `=false` (undefined when absent). */
function givenSwitch(args: ParsedArgs, name: string): boolean | undefined {
  const text = single(args, name);
  if (text === undefined) return undefined;
  if (text !== 'true' && text !== 'false') throw new UsageError(`--${name} takes no value (or =true, =false)`);
  return text === 'true';
}

/** A repeatable URL flag: each value an http(s) endpoint (network/endpoints.ts), duplicates dropped. */
function endpointsFlag(args: ParsedArgs, name: string): string[] | undefined {
  const values = args.flags.get(name);
  if (values === undefined) return undefined;
  try {
    return parseEndpointList(values, `--${name}`);
  } catch (error) {
    if (error instanceof BadInputError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * `--fetch-from URL`…, `--routing URL`…, `--offline` (contract section 11): each one given wins over the
 * data folder's settings.json for this run; undefined when none is given.
 */
function networkFlags(args: ParsedArgs): ServiceConfig['network'] {
  const fetchFrom = endpointsFlag(args, 'fetch-from');
  const routing = endpointsFlag(args, 'routing');
  const offline = givenSwitch(args, 'offline');
  if (fetchFrom === undefined && routing === undefined && offline === undefined) return undefined;
  return {
    ...(fetchFrom !== undefined ? { fetchFrom } : {}),
    ...(routing !== undefined ? { routing } : {}),
    ...(offline !== undefined ? { offline } : {}),
  };
}

function cidProfileFlag(args: ParsedArgs): CidProfileName | undefined {
  const text = single(args, 'cid-profile');
  if (text === undefined) return undefined;
  const known = CID_PROFILES.find((name) => name === text);
  if (known === undefined) throw new UsageError(`--cid-profile must be one of ${CID_PROFILES.join(', ')} (got "${text}")`);
  return known;
}

/**
 * The flags of `pinfold serve` (contract section 1) into a config; unknown flags are an error, not ignored.
 * A flag of a setting (`--port`, `--gc-interval`, `--cid-profile`, ...) is in the config only when given:
 * it then wins over settings.json for this run (docs/settings.md).
 */
export function serveConfig(args: ParsedArgs): ServiceConfig {
  checkFlags(args, commandSpecOf(['serve']));
  const port = givenPort(args, 'port');
  const desktopPort = givenPort(args, 'desktop-port');
  if (port !== undefined && desktopPort !== undefined) throw new UsageError('--port and --desktop-port name the same thing: give one');
  const resolver = single(args, 'dns-resolver');
  if (resolver !== undefined && !/^(\[[0-9a-fA-F:]+\]|[^:\s]+):\d{1,5}$/.test(resolver)) throw new UsageError('--dns-resolver must be HOST:PORT');
  const data = single(args, 'data');
  const database = single(args, 'db');
  const blocks = single(args, 'blocks');
  // Refused here, before the data folder is touched (the composition root refuses it too, for embedders).
  if (blocks !== undefined && database === undefined) throw new UsageError('--blocks needs --db postgres://…: the block index must be shared like the bucket');
  const masterKeyFile = single(args, 'master-key-file');
  const network = networkFlags(args);
  const settingFlags: Partial<ServiceConfig> = {
    ...optionalEntry('port', port),
    ...optionalEntry('desktopPort', desktopPort),
    ...optionalEntry('gcIntervalSeconds', givenSeconds(args, 'gc-interval', 1)),
    ...optionalEntry('gcGraceSeconds', givenSeconds(args, 'gc-grace')),
    ...optionalEntry('publicGateway', givenSwitch(args, 'public-gateway')),
    ...optionalEntry('cidProfile', cidProfileFlag(args)),
    ...optionalEntry('network', network),
  };
  return defaultConfig({
    ...settingFlags,
    ...(masterKeyFile !== undefined ? { masterKeyFile } : {}),
    ...(database !== undefined ? { database: parsePostgresUrl(database) } : {}),
    ...(blocks !== undefined ? { blocks: parseS3Url(blocks) } : {}),
    ...(data !== undefined ? { dataDir: data } : {}),
    host: single(args, 'host') ?? DEFAULTS.host,
    tsWindowSeconds: seconds(args, 'ts-window', DEFAULTS.tsWindowSeconds, 1),
    pinTimeoutSeconds: seconds(args, 'pin-timeout', DEFAULTS.pinTimeoutSeconds, 1),
    dnsResolver: resolver,
    allowOrigins: args.flags.get('allow-origin') ?? [],
  });
}

/** `{ [key]: value }` when a value is given, else nothing to spread. */
function optionalEntry<K extends string, T>(key: K, value: T | undefined): Partial<Record<K, T>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, T>);
}

/** `serve --keychain`: a new data folder keeps its secrets in the OS keychain. */
export function serveKeychainFlag(args: ParsedArgs): boolean {
  return single(args, 'keychain') === 'true';
}
