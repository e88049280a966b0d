import { defaultDataDir } from '../base/config.js';
import { DataFolderLockedError } from '../base/lock-file.js';
import { createLogger } from '../base/logger.js';
import { parseArgs, serveConfig, serveKeychainFlag, UsageError, type ParsedArgs } from './args.js';
import { accountCommand } from './account.js';
import { gcCommand } from './gc.js';
import { OPEN_USAGE, openCommand } from './open.js';
import { SYNC_USAGE, syncCommand } from './sync.js';
import { SECRETS_USAGE, secretsCommand } from './secrets.js';
import { parentChannel } from '../service/parent-channel.js';
import { runService } from '../service/service-entry.js';

const USAGE = `Usage: pinfold <command> [--data DIR]

  serve [--port N] [--host H] [--gc-interval S] [--gc-grace S] [--ts-window S]
        [--dns-resolver HOST:PORT] [--public-gateway] [--allow-origin ORIGIN]...
        [--cid-profile unixfs-v1-2025|unixfs-v0-2015] [--keychain] [--db postgres://USER@HOST/DB]
        [--fetch-from URL]... [--routing URL]... [--offline]
                                   run the service (default port 5080); --cid-profile picks
                                   how new content is laid out (unixfs-v0-2015: Kubo's legacy
                                   CIDv0 defaults, as gw3 uses); --keychain keeps a new data
                                   folder's master key and owner key in the OS keychain; --db
                                   keeps the metadata in PostgreSQL (password: PGPASSWORD or
                                   ~/.pgpass; no sync folders in that mode); --fetch-from
                                   (trustless gateways) and --routing (Delegated Routing V1
                                   endpoints) say where pins' missing blocks come from, for this
                                   run, over the Settings page's; --offline sends nothing out
  account list                     list accounts (uuid, plan, partner flag, balance)
  account partner <uuid> on|off    mark an account as a qualified partner or not
  account credit <uuid> <amount>   add to an account's balance, e.g. 25.00
                                   (the account commands take --db postgres://… in the
                                   PostgreSQL mode, as serve does)
  gc [--gc-grace S]                one garbage-collection cycle (asks the running server, if any)
${OPEN_USAGE}
${SYNC_USAGE}
${SECRETS_USAGE}

Data folder (default ${defaultDataDir()}) is shared with the desktop app.`;

async function serve(args: ParsedArgs): Promise<void> {
  const config = serveConfig(args);
  await runService({
    config,
    preferKeychain: serveKeychainFlag(args),
    logger: createLogger(process.env.PINFOLD_LOG === 'debug' ? 'debug' : 'info'),
    env: process.env,
    print: (text) => void process.stdout.write(text),
    interactive: process.stdout.isTTY === true,
    channel: parentChannel(),
    exit: (code) => process.exit(code),
    onSignal: (signal, listener) => void process.on(signal, listener),
  });
}

export async function main(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv);
  const [command, ...rest] = args.positional;
  if (!command || args.flags.has('help')) {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  switch (command) {
    case 'serve':
      if (rest.length > 0) throw new UsageError(`serve takes no arguments, got ${rest.join(' ')}`);
      await serve(args);
      return -1;
    case 'account':
      return accountCommand({ ...args, positional: rest });
    case 'gc':
      return gcCommand({ ...args, positional: rest });
    case 'open':
      return openCommand({ ...args, positional: rest });
    case 'sync':
      return syncCommand({ ...args, positional: rest });
    case 'secrets':
      return secretsCommand({ ...args, positional: rest });
    default:
      throw new UsageError(`unknown command ${command}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) process.stderr.write(`pinfold: ${error.message}\n\n${USAGE}\n`);
    else if (error instanceof DataFolderLockedError) process.stderr.write(`pinfold: ${error.message}\n`);
    else process.stderr.write(`pinfold: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
